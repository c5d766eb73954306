package index

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

func TestLoadTestCatalog(t *testing.T) {
	cat, err := LoadDir("testdata/catalog", nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[ext.Kind]int{ext.KindTool: 6, ext.KindPrompt: 1, ext.KindResource: 2, ext.KindResourceTemplate: 1}
	for k, n := range want {
		if got := cat.Count(k); got != n {
			t.Errorf("%s: got %d, want %d", k, got, n)
		}
	}
	var names []string
	for _, it := range cat.Items {
		if it.Kind == ext.KindTool {
			names = append(names, it.Name+"<"+it.UpstreamName)
		}
	}
	wantNames := "notes__create_note<create_note notes__delete_note<delete_note notes__list_notes<list_notes notes__search<search weather__get_forecast<get_forecast weather__search<search"
	if got := strings.Join(names, " "); got != wantNames {
		t.Errorf("got canonical names %s, want %s", got, wantNames)
	}
	for _, it := range cat.Items {
		var obj struct{ Name, URI string }
		json.Unmarshal(it.Object, &obj)
		if (it.Kind == ext.KindTool || it.Kind == ext.KindPrompt) && obj.Name != it.Name {
			t.Errorf("stored object of %s has name %q", it.Name, obj.Name)
		}
	}
}

func TestLoadErrors(t *testing.T) {
	const good = `{"server":"a","tools":[{"name":"t","inputSchema":{"type":"object"}}]}`
	for _, test := range []struct {
		name  string
		files map[string]string
		want  []string // parts of the error message
	}{
		{"not JSON", map[string]string{"a.json": good, "b.json": "{\n\"server\": \"b\",\n tools: []}"}, []string{"b.json", "not valid JSON", "line 3"}},
		{"JSON array", map[string]string{"a.json": `[]`}, []string{"a.json", "want an object"}},
		{"no server", map[string]string{"a.json": `{"tools":[]}`}, []string{"a.json", "field server", "missing"}},
		{"bad server name", map[string]string{"a.json": `{"server":"a b","tools":[]}`}, []string{"field server", `"a b" is not a server name`}},
		{"server with separator", map[string]string{"a.json": `{"server":"a__b"}`}, []string{"field server", "separator"}},
		{"duplicate server", map[string]string{"a.json": good, "b.json": good}, []string{"b.json", `server "a" is already defined by`, "a.json"}},
		{"tool without name", map[string]string{"a.json": `{"server":"a","tools":[{"name":"ok","inputSchema":{}},{"description":"x","inputSchema":{}}]}`}, []string{"a.json", "tools[1]", "field name", "missing"}},
		{"tool name not a string", map[string]string{"a.json": `{"server":"a","tools":[{"name":5}]}`}, []string{"tools[0]", "field name"}},
		{"tool not an object", map[string]string{"a.json": `{"server":"a","tools":["x"]}`}, []string{"tools[0]", "not a JSON object"}},
		{"schema missing", map[string]string{"a.json": `{"server":"a","tools":[{"name":"t"}]}`}, []string{`tools[0] "t"`, "field inputSchema", "missing"}},
		{"schema not an object", map[string]string{"a.json": `{"server":"a","tools":[{"name":"t","inputSchema":"object"}]}`}, []string{`tools[0] "t"`, "field inputSchema", "must be a JSON object"}},
		{"schema of another type", map[string]string{"a.json": `{"server":"a","tools":[{"name":"t","inputSchema":{"type":"array"}}]}`}, []string{"field inputSchema", `type must be "object"`}},
		{"duplicate tool", map[string]string{"a.json": `{"server":"a","tools":[{"name":"t","inputSchema":{}},{"name":"t","inputSchema":{}}]}`}, []string{"a.json", `tool "t"`, "field name", `duplicate canonical name "a__t"`}},
		{"canonical collision across servers", map[string]string{
			"a.json": `{"server":"x","tools":[{"name":"_y","inputSchema":{}}]}`,
			"b.json": `{"server":"x_","tools":[{"name":"y","inputSchema":{}}]}`,
		}, []string{`duplicate canonical name "x___y"`, `server "x"`}},
		{"resource without uri", map[string]string{"a.json": `{"server":"a","resources":[{"name":"r"}]}`}, []string{`resources[0] "r"`, "field uri", "missing"}},
		{"duplicate resource", map[string]string{"a.json": `{"server":"a","resources":[{"name":"r","uri":"x://1"},{"name":"s","uri":"x://1"}]}`}, []string{"field uri", "duplicate"}},
		{"template without uriTemplate", map[string]string{"a.json": `{"server":"a","resourceTemplates":[{"name":"r","uri":"x://1"}]}`}, []string{`resourceTemplates[0] "r"`, "field uriTemplate"}},
		{"prompt argument without name", map[string]string{"a.json": `{"server":"a","prompts":[{"name":"p","arguments":[{"description":"d"}]}]}`}, []string{`prompts[0] "p"`, "field arguments[0].name"}},
		{"empty directory", map[string]string{"README.md": "hi"}, []string{"holds no *.json files"}},
	} {
		t.Run(test.name, func(t *testing.T) {
			_, err := LoadDir(writeCatalog(t, test.files), nil)
			if err == nil {
				t.Fatalf("got no error, want one containing %q", test.want)
			}
			for _, part := range test.want {
				if !strings.Contains(err.Error(), part) {
					t.Errorf("got %q, want it to contain %q", err, part)
				}
			}
		})
	}
}

func TestLoadErrorType(t *testing.T) {
	_, err := LoadDir(writeCatalog(t, map[string]string{"x.json": `{"server":"x","tools":[{"name":"t","inputSchema":7}]}`}), nil)
	var le *LoadError
	if !errors.As(err, &le) || le.Field != "inputSchema" || !strings.HasSuffix(le.File, "x.json") || le.Item != `tools[0] "t"` {
		t.Errorf("got %#v, want a *LoadError naming x.json, tools[0] and inputSchema", err)
	}
}

func TestVersionIsContentHash(t *testing.T) {
	a, err := LoadDir("testdata/catalog", nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := LoadDir("testdata/catalog", nil)
	if a.Version() != b.Version() || len(a.Version()) != 64 {
		t.Errorf("got versions %s and %s, want one SHA-256 for one catalog", a.Version(), b.Version())
	}
	c, _ := LoadDir("testdata/catalog", &LoadOptions{Separator: "."})
	if c.Version() == a.Version() {
		t.Errorf("another separator gave the same version")
	}
	changed := writeCatalog(t, map[string]string{"a.json": `{"server":"a","tools":[{"name":"t","description":"one","inputSchema":{}}]}`})
	changed2 := writeCatalog(t, map[string]string{"a.json": `{"server":"a","tools":[{"name":"t","description":"two","inputSchema":{}}]}`})
	x, _ := LoadDir(changed, nil)
	y, _ := LoadDir(changed2, nil)
	if x.Version() == y.Version() {
		t.Errorf("a changed description gave the same version")
	}
}

func TestDefaultCatalogLoads(t *testing.T) {
	cat, err := LoadDir(defaultCatalog, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[ext.Kind]int{ext.KindTool: 4584, ext.KindPrompt: 38, ext.KindResource: 29, ext.KindResourceTemplate: 6}
	for k, n := range want {
		if got := cat.Count(k); got != n {
			t.Errorf("%s: got %d, want %d", k, got, n)
		}
	}
	if len(cat.Servers) != 67 {
		t.Errorf("got %d servers, want 67", len(cat.Servers))
	}
}
