package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestColdstartCompareWork: --compare-work gives the --compare bootstrap
// the bundles of its own bench (a revision of another bundle format
// refuses this one's), and the bundled index keeps its own; without it,
// both read the same bundle; alone, it is a usage error.
func TestColdstartCompareWork(t *testing.T) {
	c := coldstartFlags{compare: "/old/bootstrap", compareWork: "/old/bench"}
	if got, want := c.compareEnv(10000, "/new/bench/bundle-10000"), []string{"MCPSEARCH_INDEX=" + filepath.Join("/old/bench", "bundle-10000")}; !slices.Equal(got, want) {
		t.Errorf("with --compare-work: got %v, want %v", got, want)
	}
	c.compareWork = ""
	if got, want := c.compareEnv(10000, "/new/bench/bundle-10000"), []string{"MCPSEARCH_INDEX=/new/bench/bundle-10000"}; !slices.Equal(got, want) {
		t.Errorf("without --compare-work: got %v, want %v", got, want)
	}
	code, _, errOut := runCLI("bench", "coldstart", "--compare-work", t.TempDir())
	if code != 2 || !strings.Contains(errOut, "--compare-work without --compare") {
		t.Errorf("--compare-work alone: exit %d, stderr %q; want 2 and the mistake named", code, errOut)
	}
}
