package catalog

import (
	"encoding/json"
	"errors"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpsearch/mcpsearch/ext"
)

// FuzzLoadFS loads a catalog of one file with arbitrary bytes: the result
// is a catalog or a *LoadError naming the file, never a panic.
func FuzzLoadFS(f *testing.F) {
	for _, seed := range []string{
		`{"server":"w","tools":[{"name":"get_weather","description":"weather","inputSchema":{"type":"object"}}]}`,
		`{"server":"p","prompts":[{"name":"summarize","arguments":[{"name":"text","required":true}]}]}`,
		`{"server":"r","resources":[{"uri":"file:///a","name":"a"}],"resourceTemplates":[{"uriTemplate":"file:///{p}","name":"t"}]}`,
		`{"server":"u","upstream":{"transport":"streamable-http","url":"http://127.0.0.1:1/mcp"},"tools":[]}`,
		`{`, `[]`, `null`, `{"server":""}`, `{"server":"a__b","tools":[{"name":5}]}`,
		`{"server":"d","tools":[{"name":"t","inputSchema":{},"_meta":{"io.github.mcpsearch\/requests":["a"],"io.github.mcpsearch/requests":["b"]}}]}`,
		`{"server":"n","tools":[{"name":"t","inputSchema":` + strings.Repeat("[", 150) + strings.Repeat("]", 150) + `}]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		fsys := fstest.MapFS{"srv.json": &fstest.MapFile{Data: data}}
		cat, err := LoadFS(fsys, "fuzz", nil)
		if err == nil {
			checkLoadedItems(t, cat)
			return
		}
		var le *LoadError
		if !errors.As(err, &le) || le.File == "" {
			t.Fatalf("got %T %v, want a *LoadError naming the file", err, err)
		}
	})
}

// checkLoadedItems checks what clients will be sent: every stored object
// is a JSON object, and a tool's or prompt's "name" is its canonical name.
func checkLoadedItems(t *testing.T, cat *Catalog) {
	t.Helper()
	if cat == nil {
		t.Fatal("nil catalog and nil error")
	}
	for _, it := range cat.Items {
		var obj map[string]any
		if err := json.Unmarshal(it.Object, &obj); err != nil {
			t.Fatalf("%s %q: stored object %s is not a JSON object: %v", it.Kind, it.Name, it.Object, err)
		}
		if (it.Kind == ext.KindTool || it.Kind == ext.KindPrompt) && obj["name"] != it.Name {
			t.Fatalf("%s %q: stored object names %v", it.Kind, it.Name, obj["name"])
		}
	}
}

// TestLoadRefusesAmbiguousNameKeys: encoding/json reads "nAme" as the
// name and the last of two "name" keys (so too "uri" and "uriTemplate"),
// but the stored object must carry exactly one such key, spelt as clients
// read it; such items are refused with a *LoadError
// naming the field. (Found by FuzzLoadFS: the first gave a bare error, the
// second stored invalid JSON that failed every later search hitting it.)
func TestLoadRefusesAmbiguousNameKeys(t *testing.T) {
	for _, test := range []struct{ name, file, want string }{
		{"other case", `{"server":"s","prompts":[{"nAme":"p"}]}`, "case-sensitive"},
		{"twice", `{"server":"s","tools":[{"name":"a","name":"bbbb","inputSchema":{"type":"object"}}]}`, "appears twice"},
		{"uri in other case", `{"server":"s","resources":[{"name":"r","URI":"file:///a"}]}`, "case-sensitive"},
		{"uriTemplate twice", `{"server":"s","resourceTemplates":[{"name":"t","uriTemplate":"a/{x}","uriTemplate":"b/{y}"}]}`, "appears twice"},
	} {
		t.Run(test.name, func(t *testing.T) {
			fsys := fstest.MapFS{"srv.json": &fstest.MapFile{Data: []byte(test.file)}}
			_, err := LoadFS(fsys, "cat", nil)
			var le *LoadError
			if !errors.As(err, &le) || le.Field == "" || !strings.Contains(err.Error(), test.want) {
				t.Errorf("got %v, want a *LoadError naming the field, saying %q", err, test.want)
			}
		})
	}
}

// TestVisibilityLoadErrors: a bad visibility is refused naming the file,
// the item and the field.
func TestVisibilityLoadErrors(t *testing.T) {
	tool := func(meta string) string {
		return `{"server":"a","tools":[{"name":"t","inputSchema":{"type":"object"},"_meta":{"io.github.mcpsearch/visibility":` + meta + `}}]}`
	}
	for _, test := range []struct {
		name, file string
		want       []string
	}{
		{"server visibility not an object", `{"server":"a","visibility":["red"]}`, []string{"a.json", "field visibility", "want an object"}},
		{"server visibility unknown key", `{"server":"a","visibility":{"users":["x"]}}`, []string{"a.json", "field visibility.users", "unknown field"}},
		{"server visibility empty", `{"server":"a","visibility":{"groups":[]}}`, []string{"field visibility", "names no group and no scope"}},
		{"server group not a string", `{"server":"a","visibility":{"groups":[1]}}`, []string{"field visibility.groups", "array of strings"}},
		{"server group with a space", `{"server":"a","visibility":{"groups":["red","a b"]}}`, []string{"field visibility.groups[1]", `"a b" is not a group or scope name`}},
		{"item visibility null", tool(`null`), []string{"a.json", `tools[0] "t"`, "field _meta.io.github.mcpsearch/visibility", "omit it"}},
		{"item scope empty", tool(`{"scopes":[""]}`), []string{`tools[0] "t"`, "field _meta.io.github.mcpsearch/visibility.scopes[0]"}},
		{"item visibility unknown key", tool(`{"group":["red"]}`), []string{`tools[0] "t"`, "visibility.group", "unknown field"}},
	} {
		t.Run(test.name, func(t *testing.T) { wantLoadError(t, test.file, test.want) })
	}
}

// TestVisibilityCatalog: an item's own visibility replaces its server's,
// leaves the object clients see, and changes the index version.
func TestVisibilityCatalog(t *testing.T) {
	files := map[string]string{"a.json": `{"server":"a","visibility":{"groups":["red","red","blue"]},"tools":[
		{"name":"own","inputSchema":{"type":"object"},"_meta":{"io.github.mcpsearch/visibility":{"scopes":["s:x"]},"other":1}},
		{"name":"inherited","inputSchema":{"type":"object"}}]}`,
		"b.json": `{"server":"b","tools":[{"name":"public","inputSchema":{"type":"object"}}]}`}
	cat, err := load(files)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{"a__own": "[] [s:x]", "a__inherited": "[blue red] []", "b__public": "[] []"}
	for _, it := range cat.Items {
		if got := strings.Join([]string{jsonList(it.Visibility.Groups), jsonList(it.Visibility.Scopes)}, " "); got != want[it.Name] {
			t.Errorf("%s: got visibility %s, want %s", it.Name, got, want[it.Name])
		}
		if strings.Contains(string(it.Object), "visibility") {
			t.Errorf("%s: object %s still holds the visibility", it.Name, it.Object)
		}
	}
	version := cat.Version(1)
	files["a.json"] = strings.Replace(files["a.json"], `"scopes":["s:x"]`, `"scopes":["s:y"]`, 1)
	if other, _ := load(files); other.Version(1) == version {
		t.Error("changing an item's visibility kept the index version")
	}
}

func jsonList(s []string) string {
	out := "["
	for i, v := range s {
		if i > 0 {
			out += " "
		}
		out += v
	}
	return out + "]"
}

func TestResourceContentErrors(t *testing.T) {
	const res = `"resources":[{"uri":"file:///a","name":"a"}]`
	for _, test := range []struct {
		name, file string
		want       []string
	}{
		{"unlisted uri", `{"server":"s",` + res + `,"resourceContents":[{"uri":"file:///b","text":"x"}]}`,
			[]string{"s.json", "resourceContents[0]", "field uri", `"file:///b" names no resource`}},
		{"missing uri", `{"server":"s",` + res + `,"resourceContents":[{"text":"x"}]}`,
			[]string{"resourceContents[0]", "field uri", "missing"}},
		{"missing text", `{"server":"s",` + res + `,"resourceContents":[{"uri":"file:///a"}]}`,
			[]string{"resourceContents[0]", "field text", "missing"}},
		{"duplicate", `{"server":"s",` + res + `,"resourceContents":[{"uri":"file:///a","text":"x"},{"uri":"file:///a","text":"y"}]}`,
			[]string{"resourceContents[1]", "has contents already"}},
		{"not an object", `{"server":"s",` + res + `,"resourceContents":["x"]}`,
			[]string{"resourceContents[0]", "not a JSON object"}},
	} {
		t.Run(test.name, func(t *testing.T) {
			_, err := load(map[string]string{"s.json": test.file})
			if err == nil {
				t.Fatal("got no error")
			}
			for _, w := range test.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("got %q, want it to contain %q", err, w)
				}
			}
			if !strings.Contains(err.Error(), filepath.Join("cat", "s.json")) {
				t.Errorf("got %q, want it to name the file", err)
			}
		})
	}
}
