package encoder

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// BenchmarkErrandMargin measures, once and by hand, a contrastive no-match
// signal: a request's best cosine to a reference class of everyday errands
// no tool does (testdata/errands.txt) minus its best cosine to any tool of
// the catalog. It prints the AUC of that margin, and of its two parts, in
// telling the default catalog's everyday requests (infra/eval/testdata
// everyday and fresh) from its off-catalog ones, per split, and the share
// of each set above a few margins, the public sets' queries included (on
// their own tools). A tool is its name split into words and its
// description, cut to 300 bytes. index/README.md's technique log says
// what came of it.
//
//	go test ./infra/eval/encoder -run - -bench ErrandMargin -benchtime 1x -timeout 60m
func BenchmarkErrandMargin(b *testing.B) {
	if b.N > 1 {
		b.Skip("run it with -benchtime 1x: it measures once")
	}
	e := mustLoad(b)
	errands := encodeAll(e, readErrands(b))
	const testdata = "../testdata"
	var requests []evalQuery
	var offCatalog []bool
	for _, set := range []string{"everyday", "fresh", "offcatalog"} {
		qs := mustReadJSONL[evalQuery](b, filepath.Join(testdata, set, "queries.jsonl"), 0, 0)
		requests = append(requests, qs...)
		for range qs {
			offCatalog = append(offCatalog, set == "offcatalog")
		}
	}
	m := errandMargins(e, defaultCatalogTools(b), requests, errands)
	for _, split := range []string{"dev", "test"} {
		var answerable, off []errandMargin
		for i, q := range requests {
			if q.Split != nil && *q.Split == split {
				if offCatalog[i] {
					off = append(off, m[i])
				} else {
					answerable = append(answerable, m[i])
				}
			}
		}
		b.Logf("%s: %d answerable, %d off-catalog; AUC margin %.3f, errand cosine %.3f, tool cosine (lower off) %.3f", split,
			len(answerable), len(off), auc(values(off, margin), values(answerable, margin)), auc(values(off, errandCosine), values(answerable, errandCosine)),
			auc(values(off, negToolCosine), values(answerable, negToolCosine)))
		logAbove(b, "  answerable", answerable)
		logAbove(b, "  off-catalog", off)
	}
	for _, set := range []struct {
		name          string
		every, offset int
	}{{"livemcpbench", 0, 0}, {"metatool", 10, 3}} {
		tools := mustReadJSONL[evalTool](b, filepath.Join(testdata, set.name, "tools.jsonl"), 0, 0)
		queries := mustReadJSONL[evalQuery](b, filepath.Join(testdata, set.name, "queries.jsonl"), set.every, set.offset)
		logAbove(b, set.name, errandMargins(e, tools, queries, errands))
	}
}

// errandMargin is a request's best cosine to an errand and to a tool.
type errandMargin struct{ errand, tool float64 }

func errandMargins(e *Encoder, tools []evalTool, queries []evalQuery, errands [][]float32) []errandMargin {
	texts := toolTexts(tools)
	for i, t := range texts {
		texts[i] = t[:min(len(t), 300)]
	}
	toolVectors := encodeAll(e, texts)
	queryVectors := encodeAll(e, queryTexts(queries))
	out := make([]errandMargin, len(queries))
	for i, v := range queryVectors {
		_, out[i].tool = rankTools(v, toolVectors)
		_, out[i].errand = rankTools(v, errands)
	}
	return out
}

func logAbove(b *testing.B, name string, ms []errandMargin) {
	line := name + ": margin above"
	for _, threshold := range []float64{0, 0.05, 0.10, 0.15, 0.20} {
		line += fmt.Sprintf("  %.2f: %.3f", threshold, 1-shareBelow(values(ms, margin), threshold+1e-12))
	}
	b.Log(line)
}

// values returns f of each of ms.
func values(ms []errandMargin, f func(errandMargin) float64) []float64 {
	out := make([]float64, len(ms))
	for i, m := range ms {
		out[i] = f(m)
	}
	return out
}

func margin(m errandMargin) float64        { return m.errand - m.tool }
func errandCosine(m errandMargin) float64  { return m.errand }
func negToolCosine(m errandMargin) float64 { return -m.tool }

// readErrands returns the lines of testdata/errands.txt that are not
// comments.
func readErrands(tb testing.TB) []string {
	data, err := os.ReadFile("testdata/errands.txt")
	if err != nil {
		tb.Fatal(err)
	}
	var out []string
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	return out
}

// defaultCatalogTools reads the tools of the default catalog's server files.
func defaultCatalogTools(tb testing.TB) []evalTool {
	files, err := filepath.Glob("../../../functions/search/catalog/*.json")
	if err != nil || len(files) == 0 {
		tb.Fatalf("no default catalog (%v)", err)
	}
	var tools []evalTool
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			tb.Fatal(err)
		}
		var server struct{ Tools []evalTool }
		if err := json.Unmarshal(data, &server); err != nil {
			tb.Fatalf("%s: %v", f, err)
		}
		tools = append(tools, server.Tools...)
	}
	return tools
}
