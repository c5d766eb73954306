package index

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"testing"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
)

// hiddenScaleWord is the word every tool of the hidden server of
// hiddenScaleCatalog holds, in its name, description and written
// requests; hiddenScaleAbsent is a word of the same length and first
// letter that no item holds.
const (
	hiddenScaleWord   = "quarkwell"
	hiddenScaleAbsent = "qzvotrine"
)

// writeHiddenScaleCatalog writes, into out, the default catalog (public)
// beside a server of n tools that only the group "vault" sees, each of
// which holds hiddenScaleWord.
func writeHiddenScaleCatalog(tb testing.TB, out string, n int) {
	tb.Helper()
	files, err := filepath.Glob(filepath.Join(defaultCatalog, "*.json"))
	if err != nil || len(files) == 0 {
		tb.Fatalf("default catalog: %v", err)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		tb.Fatal(err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(out, filepath.Base(f)), data, 0o644); err != nil {
			tb.Fatal(err)
		}
	}
	type tool struct {
		Name        string          `json:"name"`
		Description string          `json:"description"`
		InputSchema json.RawMessage `json:"inputSchema"`
		Meta        map[string]any  `json:"_meta"`
	}
	tools := make([]tool, n)
	for i := range tools {
		tools[i] = tool{
			Name:        fmt.Sprintf("%s_rotate_%d", hiddenScaleWord, i),
			Description: fmt.Sprintf("Rotate the %s key of vault %d and report its age.", hiddenScaleWord, i),
			InputSchema: json.RawMessage(`{"type":"object"}`),
			Meta: map[string]any{"io.github.mcpsearch/requests": []string{
				fmt.Sprintf("rotate the %s key of vault %d", hiddenScaleWord, i),
				fmt.Sprintf("how old is the %s key number %d", hiddenScaleWord, i),
			}},
		}
	}
	data, err := json.Marshal(map[string]any{"server": "vault", "visibility": map[string]any{"groups": []string{"vault"}}, "tools": tools})
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(out, "vault.json"), data, 0o644); err != nil {
		tb.Fatal(err)
	}
}

// BenchmarkHiddenPostings times, for a caller who does not see a server
// of 20,000 tools that all hold one word (README "What is not hidden"),
// a search for that word against one for a word no item holds, of the
// same length and first letter, and a search of the default catalog's
// everyday words. Each round searches them in turn, so that the load of a
// shared machine weighs on each alike; it reports the median of each in
// microseconds, and the hidden word's over the absent word's.
//
//	go test ./index -run - -bench HiddenPostings -benchtime 400x -cpu 1
func BenchmarkHiddenPostings(b *testing.B) {
	catalogDir := filepath.Join(b.TempDir(), "catalog")
	writeHiddenScaleCatalog(b, catalogDir, 20000)
	x := mustBuild(b, catalogDir)
	public := ext.WithAccess(context.Background(), ext.Access{Groups: []string{"public-only"}})
	queries := []struct{ name, text string }{
		{"hidden", hiddenScaleWord},
		{"absent", hiddenScaleAbsent},
		{"hidden-in-request", "rotate the " + hiddenScaleWord + " key"},
		{"absent-in-request", "rotate the " + hiddenScaleAbsent + " key"},
	}
	runtime.GC()
	times := make([][]time.Duration, len(queries))
	for b.Loop() {
		for i, q := range queries {
			start := time.Now()
			if _, err := x.Search(public, ext.Query{Kind: ext.KindTool, Text: q.text, Limit: 10}); err != nil {
				b.Fatal(err)
			}
			times[i] = append(times[i], time.Since(start))
		}
	}
	medians := make([]float64, len(queries))
	for i, q := range queries {
		slices.Sort(times[i])
		medians[i] = float64(times[i][len(times[i])/2].Nanoseconds()) / 1e3
		b.ReportMetric(medians[i], q.name+"-µs")
	}
	b.ReportMetric(medians[0]/medians[1], "hidden/absent")
	b.ReportMetric(medians[2]/medians[3], "hidden/absent-in-request")
}
