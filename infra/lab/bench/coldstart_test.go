package bench

import (
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpsearch/mcpsearch/index"
	"github.com/mcpsearch/mcpsearch/infra/artifact"
)

// TestAlternateFloorAndBootstrap cold-starts the floor (the trivial
// aws-lambda-go function) and the real bootstrap on a small bundle, in
// turn, as bench coldstart does: both answer the search event with 200
// (ColdStart checks it) and each gets its own ordered figures.
func TestAlternateFloorAndBootstrap(t *testing.T) {
	tmp := t.TempDir()
	floor, bin := filepath.Join(tmp, "floor"), filepath.Join(tmp, "bootstrap")
	if err := CompileFloor("../../..", floor); err != nil {
		t.Fatal(err)
	}
	if err := artifact.Compile("../../..", runtime.GOARCH, "test", bin); err != nil {
		t.Fatal(err)
	}
	bundle := filepath.Join(tmp, "bundle")
	if _, err := index.BuildDir("../../../index/testdata/catalog", bundle, nil); err != nil {
		t.Fatal(err)
	}
	starts := []Start{{Bootstrap: bin, Env: []string{"MCPSEARCH_INDEX=" + bundle}}, {Bootstrap: floor}}
	stats, err := Alternate(starts, 2, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if len(stats) != 2 {
		t.Fatalf("got %d stats, want one per start", len(stats))
	}
	for i, s := range stats {
		if s.Min <= 0 || s.Median < s.Min || s.Max < s.Median {
			t.Errorf("start %d: got %+v, want 0 < min <= median <= max", i, s)
		}
	}
}

// TestAlternateNamesTheFailingStart: a start that cannot run fails the
// measurement, named by its bootstrap.
func TestAlternateNamesTheFailingStart(t *testing.T) {
	missing := filepath.Join(t.TempDir(), "no-such-bootstrap")
	_, err := Alternate([]Start{{Bootstrap: missing}}, 1, 5*time.Second)
	if err == nil || !strings.Contains(err.Error(), "no-such-bootstrap") {
		t.Errorf("got %v, want an error naming no-such-bootstrap", err)
	}
}
