package main

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"
)

// TestStartGCInitialisedFirst: package startgc is initialised before the
// packages whose initialisation allocates the most (santhosh-tekuri's
// jsonschema, bleve's scorch), so that the collector's setting for the
// start applies to them; read from this test binary's own init trace.
func TestStartGCInitialisedFirst(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	order := map[string]int{}
	for i, line := range strings.Split(string(out), "\n") {
		if f := strings.Fields(line); len(f) > 1 && f[0] == "init" {
			order[f[1]] = i + 1
		}
	}
	first := order["github.com/mcpsearch/mcpsearch/functions/search/internal/startgc"]
	for _, heavy := range []string{"github.com/santhosh-tekuri/jsonschema/v6", "github.com/blevesearch/bleve/v2/index/scorch"} {
		if first == 0 || order[heavy] == 0 || order[heavy] < first {
			t.Errorf("init trace lines: startgc %d, %s %d; want startgc first", first, heavy, order[heavy])
		}
	}
}

// TestRestoringAfterFirst: the first request is answered under the
// start's setting, which is restored as it returns.
func TestRestoringAfterFirst(t *testing.T) {
	restored := 0
	var seen []int
	h := restoringAfterFirst(func(_ context.Context, ev int) (int, error) {
		seen = append(seen, restored)
		return ev * 2, nil
	}, func() { restored++ })
	for ev := 1; ev <= 2; ev++ {
		if got, err := h(context.Background(), ev); err != nil || got != 2*ev {
			t.Fatalf("event %d: got %d, %v, want %d", ev, got, err, 2*ev)
		}
	}
	if seen[0] != 0 || restored == 0 {
		t.Errorf("restore calls seen by the handler %v, after: %d; want none before the first answer, one after it", seen, restored)
	}
}
