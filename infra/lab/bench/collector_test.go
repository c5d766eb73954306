package bench

import (
	"bytes"
	"context"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpsearch/mcpsearch/index"
	"github.com/mcpsearch/mcpsearch/infra/artifact"
	"github.com/mcpsearch/mcpsearch/infra/testenv/lambdaemu"
)

// TestColdStartDefersCollection: the real bootstrap, on the bundled
// catalog under the runtime API emulator, runs no garbage collection from
// main until its first answer (a start allocates mostly what it keeps, so
// a collection there is time spent finding little), and collects again
// once the second event has begun. With GODEBUG=gctrace=1,inittrace=1 the
// runtime writes each collection as "gc N @S.SSSs" (its start, since the
// runtime began) and main's initialisation as "init main @M ms".
func TestColdStartDefersCollection(t *testing.T) {
	tmp := t.TempDir()
	bin, bundle := filepath.Join(tmp, "bootstrap"), filepath.Join(tmp, "bundle")
	if err := artifact.Compile("../../..", runtime.GOARCH, "test", bin); err != nil {
		t.Fatal(err)
	}
	if _, err := index.BuildDir("../../../functions/search/catalog", bundle, nil); err != nil {
		t.Fatal(err)
	}
	emu, err := lambdaemu.Start(time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	defer emu.Close()
	var stderr lockedBuffer
	cmd := emu.Command(bin, "MCPSEARCH_AUTH=none", "MCPSEARCH_INDEX="+bundle, "GODEBUG=gctrace=1,inittrace=1", "GOGC=1")
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if _, err := emu.Invoke(ctx, searchEvent); err != nil {
		t.Fatal(err)
	}
	mainAt, gcs := collections(t, stderr.String())
	if late := after(gcs, mainAt); len(late) > 0 {
		t.Errorf("collections started at %v ms, after main (%.1f ms) and before the first answer", late, mainAt)
	}
	for range 2 {
		if _, err := emu.Invoke(ctx, searchEvent); err != nil {
			t.Fatal(err)
		}
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, gcs := collections(t, stderr.String()); len(after(gcs, mainAt)) > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("no collection after the second and third events: the collector stayed off\n%s", stderr.String())
		}
	}
}

var (
	mainInit  = regexp.MustCompile(`(?m)^init main @([0-9.]+) ms`)
	gcStarted = regexp.MustCompile(`(?m)^gc \d+ @([0-9.]+)s`)
)

// collections reads, from the runtime's trace, when main's package was
// initialised and when each collection started, both in ms since the
// runtime began.
func collections(t *testing.T, trace string) (mainAt float64, gcs []float64) {
	t.Helper()
	m := mainInit.FindStringSubmatch(trace)
	if m == nil {
		t.Fatalf("no \"init main\" line in the trace:\n%s", trace)
	}
	mainAt, _ = strconv.ParseFloat(m[1], 64)
	for _, g := range gcStarted.FindAllStringSubmatch(trace, -1) {
		s, _ := strconv.ParseFloat(g[1], 64)
		gcs = append(gcs, s*1000)
	}
	return mainAt, gcs
}

// after returns the starts of gcs later than main's initialisation; the
// trace prints main's time to two digits and a collection's to the ms, so
// a start within 1 ms of it counts as before.
func after(gcs []float64, mainAt float64) []float64 {
	var late []float64
	for _, g := range gcs {
		if g > mainAt+1 {
			late = append(late, g)
		}
	}
	return late
}

// lockedBuffer is a bytes.Buffer the process writes while the test reads.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Clone(l.b.String())
}
