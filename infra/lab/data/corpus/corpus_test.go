package corpus

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

const root = "../../../.."

func loadCorpus(t *testing.T) *Corpus {
	t.Helper()
	c, err := Load(".")
	if err != nil {
		t.Fatal(err)
	}
	return c
}

func TestCorpus(t *testing.T) {
	c := loadCorpus(t)
	for _, p := range c.Check() {
		t.Error(p)
	}
	servers, written, requests := map[string]bool{}, 0, 0
	for _, it := range c.Catalog.Items {
		servers[it.Server] = true
		if len(it.Requests) > 0 {
			written++
			requests += len(it.Requests)
		}
	}
	t.Logf("%d servers, %d items, %d with written requests, %d requests", len(servers), len(c.Catalog.Items), written, requests)
	if len(servers) < 100 || written < 3598 || requests < 22000 {
		t.Errorf("got %d servers, %d written items, %d requests; want at least 100, 3,598 and 22,000", len(servers), written, requests)
	}
}

// TestNeitherDefaultNorEvaluated checks that the corpus adds servers: none
// is a server or package of the default catalog, and no tool is one of
// the public evaluation sets' (same name and description), which measure
// transfer to catalogs nobody wrote requests for.
func TestNeitherDefaultNorEvaluated(t *testing.T) {
	c := loadCorpus(t)
	def, err := catalog.LoadDir(filepath.Join(root, "functions/search/catalog"), nil)
	if err != nil {
		t.Fatal(err)
	}
	defaultServers := map[string]bool{}
	for _, it := range def.Items {
		defaultServers[it.Server] = true
	}
	defaultSources, err := os.ReadFile(filepath.Join(root, "functions/search/catalog/SOURCES.md"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range c.Sources {
		name := strings.TrimSuffix(s.File, ".json")
		pkg := s.Package[:strings.LastIndex(s.Package, "@")]
		if defaultServers[name] || strings.Contains(string(defaultSources), "| "+pkg+"@") {
			t.Errorf("%s (%s) is in the default catalog", s.File, s.Package)
		}
	}
	evaluated := evaluationTools(t)
	for _, it := range c.Catalog.Items {
		if evaluated[it.Label+"\x00"+it.Description] {
			t.Errorf("%s: %s %q is a tool of a public evaluation set", it.Server, it.Kind, it.Label)
		}
	}
}

// evaluationTools are the name and description of every tool of the
// public sets' catalogs (tools.jsonl; their queries are never read).
func evaluationTools(t *testing.T) map[string]bool {
	t.Helper()
	out := map[string]bool{}
	for _, set := range []string{"azure_mcp", "livemcpbench", "metatool"} {
		f, err := os.Open(filepath.Join(root, "infra/lab/eval/testdata", set, "tools.jsonl"))
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			var tool struct{ Name, Description string }
			if err := json.Unmarshal(sc.Bytes(), &tool); err != nil {
				t.Fatal(set, err)
			}
			out[tool.Name+"\x00"+tool.Description] = true
		}
		f.Close()
		if len(out) == 0 || sc.Err() != nil {
			t.Fatalf("%s: no tools read (%v)", set, sc.Err())
		}
	}
	return out
}

func TestCheckRefuses(t *testing.T) {
	dir := t.TempDir()
	if err := os.Mkdir(filepath.Join(dir, "catalog"), 0o755); err != nil {
		t.Fatal(err)
	}
	requests := func(n int) string {
		rs := make([]string, n)
		for i := range rs {
			rs[i] = `"read the report number ` + string(rune('a'+i)) + `"`
		}
		return `{"io.github.mcpsearch/requests": [` + strings.Join(rs, ",") + `]}`
	}
	files := map[string]string{
		"good.json":     `{"server": "good", "tools": [{"name": "a", "description": "d", "inputSchema": {"type": "object"}, "_meta": ` + requests(6) + `}]}`,
		"few.json":      `{"server": "few", "tools": [{"name": "a", "description": "d", "inputSchema": {"type": "object"}, "_meta": ` + requests(3) + `}]}`,
		"bare.json":     `{"server": "bare", "tools": [{"name": "a", "description": "d", "inputSchema": {"type": "object"}}]}`,
		"unlisted.json": `{"server": "unlisted", "tools": [{"name": "a", "description": "d", "inputSchema": {"type": "object"}, "_meta": ` + requests(6) + `}]}`,
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, "catalog", name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sources := "| file | package@version | licence | source | tools | prompts | resources | templates |\n|---|---|---|---|--:|--:|--:|--:|\n" +
		"| good.json | good-mcp@1.0.0 | GPL-3.0 | x | 1 | 0 | 0 | 0 |\n" +
		"| few.json | few-mcp | MIT | x | 1 | 0 | 0 | 0 |\n" +
		"| bare.json | @v/bare-mcp@2.0.1 | MIT | x | 1 | 0 | 0 | 0 |\n" +
		"| gone.json | gone@1.0.0 | MIT | x | 1 | 0 | 0 | 0 |\n"
	if err := os.WriteFile(filepath.Join(dir, "SOURCES.md"), []byte(sources), 0o644); err != nil {
		t.Fatal(err)
	}
	c, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	got := strings.Join(c.Check(), "\n")
	for _, want := range []string{
		`good.json: licence "GPL-3.0"`,
		`few.json: package "few-mcp" is not package@version`,
		`few.json: tool "a" has 3 written requests, want at least 6`,
		`bare.json: 0 of its 1 items carry written requests, want at least 1`,
		`gone.json: in SOURCES.md, not in catalog/`,
		`unlisted.json: not in SOURCES.md`,
	} {
		if !strings.Contains(got, want) {
			t.Errorf("Check did not say %q; it said:\n%s", want, got)
		}
	}
	if n := len(c.Check()); n != 6 {
		t.Errorf("Check found %d problems, want 6:\n%s", n, got)
	}
}
