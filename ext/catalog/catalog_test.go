package catalog

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpsearch/mcpsearch/ext"
)

func TestLoadTestCatalog(t *testing.T) {
	cat, err := LoadDir("../../index/testdata/catalog", nil)
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
			_, err := load(test.files)
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
	_, err := load(map[string]string{"x.json": `{"server":"x","tools":[{"name":"t","inputSchema":7}]}`})
	var le *LoadError
	if !errors.As(err, &le) || le.Field != "inputSchema" || !strings.HasSuffix(le.File, "x.json") || le.Item != `tools[0] "t"` {
		t.Errorf("got %#v, want a *LoadError naming x.json, tools[0] and inputSchema", err)
	}
}

func TestVersionIsContentHash(t *testing.T) {
	a, err := LoadDir("../../index/testdata/catalog", nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := LoadDir("../../index/testdata/catalog", nil)
	if a.Version(1) != b.Version(1) || len(a.Version(1)) != 64 {
		t.Errorf("got versions %s and %s, want one SHA-256 for one catalog", a.Version(1), b.Version(1))
	}
	c, _ := LoadDir("../../index/testdata/catalog", &LoadOptions{Separator: "."})
	if c.Version(1) == a.Version(1) {
		t.Errorf("another separator gave the same version")
	}
	x, _ := load(map[string]string{"a.json": `{"server":"a","tools":[{"name":"t","description":"one","inputSchema":{}}]}`})
	y, _ := load(map[string]string{"a.json": `{"server":"a","tools":[{"name":"t","description":"two","inputSchema":{}}]}`})
	if x.Version(1) == y.Version(1) {
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

// TestLoadRefusesHostileItems: names clients could not use or would show
// wrongly, and items past the size limits, are refused with a *LoadError
// naming the file, the item and the field. (Before the limits, every one of
// them built, and a 50 MB description took 2.9 GB.)
func TestLoadRefusesHostileItems(t *testing.T) {
	tool := func(fields string) string {
		return `{"server":"s","tools":[{"name":"ok","inputSchema":{}},{` + fields + `}]}`
	}
	long := func(n int) string { return strings.Repeat("x", n) }
	for _, test := range []struct {
		name, file, item, field string
	}{
		{"NUL in a tool name", tool(`"name":"a\u0000b","inputSchema":{}`), `tools[1] "a\x00b"`, "name"},
		{"right-to-left override in a tool name", tool(`"name":"txt.exe\u202egnp","inputSchema":{}`), `tools[1] "txt.exe\u202egnp"`, "name"},
		{"space in a tool name", tool(`"name":"delete all","inputSchema":{}`), `tools[1] "delete all"`, "name"},
		{"newline in a tool name", tool(`"name":"a\nb","inputSchema":{}`), `tools[1] "a\nb"`, "name"},
		{"zero-width space in a tool name", tool(`"name":"git\u200bhub","inputSchema":{}`), `tools[1] "git\u200bhub"`, "name"},
		{"lone surrogate in a tool name", tool(`"name":"a\udc00","inputSchema":{}`), "tools[1] \"a\ufffd\"", "name"},
		{"10,000-character tool name", tool(`"name":"` + long(10000) + `","inputSchema":{}`), `tools[1] "` + long(64) + `"…`, "name"},
		{"canonical name of 129 characters", tool(`"name":"` + long(126) + `","inputSchema":{}`), `tools[1] "` + long(64) + `"…`, "name"},
		{"space in a prompt name", `{"server":"s","prompts":[{"name":"p q"}]}`, `prompts[0] "p q"`, "name"},
		{"newline in a resource URI", `{"server":"s","resources":[{"name":"r","uri":"file:///a\nb"}]}`, `resources[0] "r"`, "uri"},
		{"resource URI over 2 KiB", `{"server":"s","resources":[{"name":"r","uri":"x://` + long(2048) + `"}]}`, `resources[0] "r"`, "uri"},
		{"override in a URI template", `{"server":"s","resourceTemplates":[{"name":"t","uriTemplate":"x://{a}\u202e"}]}`, `resourceTemplates[0] "t"`, "uriTemplate"},
		{"override in a resource name", `{"server":"s","resources":[{"name":"r\u202ex","uri":"x://1"}]}`, `resources[0] "r\u202ex"`, "name"},
		{"newline in a title", tool(`"name":"t","title":"a\nb","inputSchema":{}`), `tools[1] "t"`, "title"},
		{"title over 1 KiB", tool(`"name":"t","title":"` + long(1025) + `","inputSchema":{}`), `tools[1] "t"`, "title"},
		{"control in an annotations title", tool(`"name":"t","annotations":{"title":"a\u0007"},"inputSchema":{}`), `tools[1] "t"`, "annotations.title"},
		{"control in a MIME type", `{"server":"s","resources":[{"name":"r","uri":"x://1","mimeType":"text/plain\r\nX: y"}]}`, `resources[0] "r"`, "mimeType"},
		{"description over 256 KiB", tool(`"name":"t","description":"` + long(256<<10+1) + `","inputSchema":{}`), `tools[1] "t"`, "description"},
		{"item over 1 MiB", tool(`"name":"t","inputSchema":{"properties":{"a":{"description":"` + long(1<<20) + `"}}}`), `tools[1] "t"`, ""},
		{"resource text over 1 MiB", `{"server":"s","resources":[{"name":"r","uri":"x://1"}],"resourceContents":[{"uri":"x://1","text":"` + long(1<<20+1) + `"}]}`, "resourceContents[0]", "text"},
	} {
		t.Run(test.name, func(t *testing.T) {
			_, err := LoadFS(fstest.MapFS{"s.json": {Data: []byte(test.file)}}, "cat", nil)
			var le *LoadError
			if !errors.As(err, &le) {
				t.Fatalf("got %v, want a *LoadError", err)
			}
			if le.File != filepath.Join("cat", "s.json") || le.Item != test.item || le.Field != test.field {
				t.Errorf("got file %q, item %q, field %q, want %q, %q, %q (%v)", le.File, le.Item, le.Field, "cat/s.json", test.item, test.field, err)
			}
			if n := len(err.Error()); n > 400 {
				t.Errorf("got an error of %d bytes, want a short one: %.400s", n, err)
			}
		})
	}
}

// TestLoadRefusesHostileFiles: a server file that is not UTF-8, or over
// 32 MiB (refused before it is read), names the file.
func TestLoadRefusesHostileFiles(t *testing.T) {
	_, err := LoadFS(fstest.MapFS{"s.json": {Data: []byte("{\"server\":\"s\",\n\"tools\":[{\"name\":\"t\xff\",\"inputSchema\":{}}]}")}}, "cat", nil)
	if err == nil || !strings.Contains(err.Error(), "s.json: not valid UTF-8 (line 2)") {
		t.Errorf("invalid UTF-8: got %v", err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "s.json"), []byte(`{"server":"s"}`), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(filepath.Join(dir, "s.json"), MaxFileBytes+1); err != nil { // sparse: nothing is written
		t.Fatal(err)
	}
	if _, err := LoadDir(dir, nil); err == nil || !strings.Contains(err.Error(), "over the limit of 32 MiB") {
		t.Errorf("a file of 32 MiB + 1: got %v", err)
	}
}

// TestLoadAcceptsWhatRealServersName: the limits leave room for what
// published servers and benchmarks use: names outside MCP's recommended
// characters but printable ('&', '/', letters of other scripts), a
// canonical name of exactly 128 characters, titles with emoji joiners,
// URIs with spaces, and the largest sizes allowed.
func TestLoadAcceptsWhatRealServersName(t *testing.T) {
	long := func(n int) string { return strings.Repeat("x", n) }
	file := `{"server":"s","tools":[
		{"name":"PDF&URLTool","inputSchema":{}},
		{"name":"user-profile/update","inputSchema":{}},
		{"name":"获取天气","title":"🧑‍💻 Weather — تقرير","inputSchema":{}},
		{"name":"` + long(125) + `","description":"` + long(256<<10) + `","inputSchema":{}}],
	"resources":[{"name":"My Notes","uri":"file:///Users/a/My Notes.txt","mimeType":"text/plain"}],
	"resourceTemplates":[{"name":"t","uriTemplate":"x://{path*}"}]}`
	cat, err := LoadFS(fstest.MapFS{"s.json": {Data: []byte(file)}}, "cat", nil)
	if err != nil {
		t.Fatal(err)
	}
	if n := cat.Count(ext.KindTool); n != 4 {
		t.Errorf("got %d tools, want 4", n)
	}
}

// TestCheckServerFile: the crawler's check is LoadFS's, names unique
// within the file included.
func TestCheckServerFile(t *testing.T) {
	for _, test := range []struct{ file, want string }{
		{`{"server":"s","tools":[{"name":"a b","inputSchema":{}}]}`, `out/s.json: tools[0] "a b": field name: character U+0020`},
		{`{"server":"s","tools":[{"name":"t","inputSchema":{}},{"name":"t","inputSchema":{}}]}`, `duplicate canonical name "s__t"`},
		{`{"server":"s","tools":[{"name":"t","inputSchema":{}}]}`, ""},
	} {
		err := CheckServerFile("out/s.json", []byte(test.file), nil)
		if test.want == "" && err != nil || test.want != "" && (err == nil || !strings.Contains(err.Error(), test.want)) {
			t.Errorf("%s: got %v, want %q", test.file, err, test.want)
		}
	}
}
