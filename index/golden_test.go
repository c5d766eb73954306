package index

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden from today's results")

// goldenQueries are everyday requests over the default catalog, of every
// kind the ranking meets: short commands, questions, names, typos, Chinese,
// file paths, filters, and requests no tool answers. Their first ten results
// are kept in testdata/golden/tools.txt, so a change of ranking shows as a
// readable diff: `go test ./index -run TestGolden -update` rewrites it.
var goldenQueries = []string{
	"take a screenshot of the page",
	"create a github issue",
	"merge a pull request",
	"list kubernetes pods",
	"k8s deployments",
	"send a slack message",
	"schedule a calendar event",
	"search the web for news",
	"read a file",
	"write /tmp/report.md to disk",
	"query the database with sql",
	"browser_navigate",
	"mcp-github__create_branch",
	"kubernets pods",
	"screnshoot of the page",
	"what time is it in Tokyo",
	"find errors in the application logs",
	"upload an image to figma",
	"translate text to french",
	"get the weather forecast",
	"how many stars does my repository have",
	"delete a branch",
	"list my open tickets in jira",
	"搜索网页",
	"创建一个新的文件",
	"order a pizza",
	"book a flight to Paris",
	"run a python script",
	"remember this fact about me",
	"generate an image from a prompt",
}

func TestGolden(t *testing.T) {
	x := defaultIndex(t)
	var got bytes.Buffer
	for _, q := range goldenQueries {
		page, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: q, Limit: 10})
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		writeGolden(t, &got, q, page)
	}
	path := filepath.Join("testdata", "golden", "tools.txt")
	if *update {
		if err := os.WriteFile(path, got.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run `go test ./index -run TestGolden -update` to write it)", err)
	}
	if !bytes.Equal(got.Bytes(), want) {
		t.Errorf("the ranking changed; if that is meant, run `go test ./index -run TestGolden -update` and review the diff:\n%s",
			lineDiff(string(want), got.String()))
	}
}

// writeGolden writes one query's results: rank, score to two decimals (the
// precision at which a change is worth a look) and canonical name, or the
// hint of an empty page.
func writeGolden(t *testing.T, w *bytes.Buffer, q string, page *ext.Page) {
	t.Helper()
	fmt.Fprintf(w, "# %s\n", q)
	if len(page.Items) == 0 {
		fmt.Fprintf(w, "   (no items) %s\n", page.Hint)
	}
	for i, h := range page.Items {
		var obj struct{ Name string }
		if err := json.Unmarshal(h.Object, &obj); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(w, "%2d %6.2f %s\n", i+1, h.Score, obj.Name)
	}
	w.WriteString("\n")
}

// lineDiff lists the lines that differ, marked - (golden) and + (today),
// in order; enough to read a ranking change.
func lineDiff(want, got string) string {
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	var b strings.Builder
	for i := 0; i < max(len(wl), len(gl)); i++ {
		var w, g string
		if i < len(wl) {
			w = wl[i]
		}
		if i < len(gl) {
			g = gl[i]
		}
		if w != g {
			fmt.Fprintf(&b, "line %d:\n- %s\n+ %s\n", i+1, w, g)
		}
	}
	return b.String()
}
