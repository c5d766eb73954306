package index

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/server"
)

// damages alter a file's bytes without changing its size, which Open's
// size check cannot see (Verify's hashes can).
var damages = []struct {
	name string
	hurt func(data []byte)
}{
	{"zeroed middle", func(b []byte) { clear(b[len(b)/4 : len(b)*3/4]) }},
	{"inverted head", func(b []byte) { invert(b[:min(len(b), 64)]) }},
	{"inverted tail", func(b []byte) { invert(b[max(0, len(b)-64):]) }},
	{"all 0xff", func(b []byte) { invert(b); clear(b); invert(b) }},
}

func invert(b []byte) {
	for i := range b {
		b[i] ^= 0xff
	}
}

// TestCorruptBundleFilesNeverCrash damages each file of a bundle in turn,
// keeping its size: Open refuses the bundle, or every search, list and
// lookup either answers or fails with an error (-32603 over the protocol);
// nothing panics. (Before guard.go, damaged zap and bolt files panicked in
// Open and in Search.)
func TestCorruptBundleFilesNeverCrash(t *testing.T) {
	t.Parallel()
	pristine := filepath.Join(t.TempDir(), "bundle")
	m, err := BuildDir("testdata/catalog", pristine, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range m.Files {
		for _, d := range damages {
			t.Run(f.Path+"/"+d.name, func(t *testing.T) {
				dir := copyBundle(t, pristine)
				path := filepath.Join(dir, f.Path)
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				d.hurt(data)
				if err := os.WriteFile(path, data, 0o644); err != nil {
					t.Fatal(err)
				}
				checkDamagedBundle(t, dir)
			})
		}
	}
}

// checkDamagedBundle opens dir and, if that works, uses it directly and
// through the protocol.
func checkDamagedBundle(t *testing.T, dir string) {
	t.Helper()
	x, err := openNoPanic(t, dir)
	if err != nil {
		return // refused at open: the documented outcome
	}
	defer x.Close()
	for _, k := range ext.Kinds {
		noPanic(t, fmt.Sprintf("Search %s", k), func() { x.Search(context.Background(), ext.Query{Kind: k, Text: "weather forecast note", Limit: 10}) })
		noPanic(t, fmt.Sprintf("List %s", k), func() { x.List(context.Background(), k, 0, 10) })
		noPanic(t, fmt.Sprintf("Resolve %s", k), func() { x.Resolve(context.Background(), k, "weather__get_forecast") })
	}
	s := server.New(x, &server.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/search","params":{"query":"weather forecast"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":1,"method":"prompts/search","params":{"query":"note"}}`,
	} {
		req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if out := rec.Body.String(); !strings.Contains(out, `"result"`) && !strings.Contains(out, `"code":-32603`) {
			t.Errorf("%s: got %d %s, want a result or -32603", body, rec.Code, out)
		}
	}
}

func openNoPanic(t *testing.T, dir string) (x *Index, err error) {
	defer func() {
		if p := recover(); p != nil {
			t.Errorf("Open panicked on a damaged bundle: %v", p)
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return Open(dir)
}

func noPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Errorf("%s panicked on a damaged bundle: %v", what, p)
		}
	}()
	f()
}

func copyBundle(tb testing.TB, src string) string {
	tb.Helper()
	dst := filepath.Join(tb.TempDir(), "bundle")
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		tb.Fatal(err)
	}
	return dst
}

// TestTruncatedBundleFilesFailOpen truncates each file of a bundle in turn
// (by one byte, and to nothing): Open refuses the bundle, naming the
// damage, before any reader maps the file.
func TestTruncatedBundleFilesFailOpen(t *testing.T) {
	t.Parallel()
	pristine := filepath.Join(t.TempDir(), "bundle")
	m, err := BuildDir("testdata/catalog", pristine, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range m.Files {
		for _, size := range []int64{f.Size - 1, 0} {
			t.Run(fmt.Sprintf("%s to %d bytes", f.Path, size), func(t *testing.T) {
				dir := copyBundle(t, pristine)
				if err := os.Truncate(filepath.Join(dir, f.Path), size); err != nil {
					t.Fatal(err)
				}
				x, err := openNoPanic(t, dir)
				if err == nil {
					x.Close()
					t.Fatal("Open succeeded on a truncated bundle")
				}
				if !strings.Contains(err.Error(), "truncated or altered") {
					t.Errorf("got %q, want it to say the file is truncated or altered", err)
				}
			})
		}
	}
}

// damagedSegmentEnv names the bundle whose segment a re-executed test
// binary damages, opens and searches (see TestMain).
const damagedSegmentEnv = "MCPSEARCH_TEST_DAMAGE_SEGMENT"

// TestDamagedSegmentNeverKills flips one byte at a time across the head,
// the middle and the last 256 bytes of the segment (zap's footer and the
// indexes it points to) and opens and searches the bundle, in a child
// process, since a fault could not be recovered: the process lives, and
// each damaged segment is refused, fails the search or answers. (Until
// format 17 the bundle held root.bolt, whose damage bolt followed outside
// its mapping — SIGSEGV — so it was hashed at open; zap reads within its
// mapping, and a panic of its readers is an error of the one request.)
func TestDamagedSegmentNeverKills(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bundle")
	if _, err := BuildDir("testdata/catalog", dir, nil); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "-test.run", "^$")
	cmd.Env = append(os.Environ(), damagedSegmentEnv+"="+dir)
	out, err := cmd.Output()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err != nil {
		t.Fatalf("the process opening damaged segments died at %q: %v", lines[len(lines)-1], err)
	}
	outcomes := map[string]int{}
	for _, line := range lines {
		_, outcome, ok := strings.Cut(line, ": ")
		if !ok {
			t.Fatalf("line %q", line)
		}
		outcome, _, _ = strings.Cut(outcome, " ")
		outcomes[outcome]++
	}
	if outcomes["refused"]+outcomes["failed"]+outcomes["answered"] != len(lines) || len(lines) < 300 {
		t.Errorf("outcomes %v of %d damaged segments", outcomes, len(lines))
	}
	t.Logf("%d damaged segments: %v", len(lines), outcomes)
}

// openDamagedSegments is the child of TestDamagedSegmentNeverKills: it
// prints one line for each damaged segment, the offset first, so that a
// crash names the offset.
func openDamagedSegments(dir string) int {
	path := filepath.Join(dir, "bleve", "segment.zap")
	pristine, err := os.ReadFile(path)
	if err != nil {
		fmt.Println(err)
		return 1
	}
	var offsets []int
	for off := range len(pristine) {
		if off < 64 || off >= len(pristine)-256 || (off >= len(pristine)/2 && off < len(pristine)/2+16) {
			offsets = append(offsets, off)
		}
	}
	for _, off := range offsets {
		data := bytes.Clone(pristine)
		data[off] ^= 0xff
		if err := os.WriteFile(path, data, 0o644); err != nil {
			fmt.Println(err)
			return 1
		}
		fmt.Printf("offset %d: %s\n", off, damagedOutcome(dir))
	}
	return 0
}

// damagedOutcome opens the bundle at dir and searches each kind.
func damagedOutcome(dir string) string {
	x, err := Open(dir)
	if err != nil {
		return "refused"
	}
	defer x.Close()
	for _, k := range ext.Kinds {
		if _, err := x.Search(context.Background(), ext.Query{Kind: k, Text: "weather forecast notes", Limit: 5, Explain: true}); err != nil {
			return "failed"
		}
	}
	return "answered"
}
