package index

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

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
		t.Run(test.name, func(t *testing.T) {
			_, err := LoadDir(writeCatalog(t, map[string]string{"a.json": test.file}), nil)
			if err == nil {
				t.Fatal("got no error")
			}
			for _, part := range test.want {
				if !strings.Contains(err.Error(), part) {
					t.Errorf("got %q, want it to contain %q", err, part)
				}
			}
		})
	}
}

// TestVisibilityCatalog: an item's own visibility replaces its server's,
// leaves the object clients see, and changes the index version.
func TestVisibilityCatalog(t *testing.T) {
	files := map[string]string{"a.json": `{"server":"a","visibility":{"groups":["red","red","blue"]},"tools":[
		{"name":"own","inputSchema":{"type":"object"},"_meta":{"io.github.mcpsearch/visibility":{"scopes":["s:x"]},"other":1}},
		{"name":"inherited","inputSchema":{"type":"object"}}]}`,
		"b.json": `{"server":"b","tools":[{"name":"public","inputSchema":{"type":"object"}}]}`}
	cat, err := LoadDir(writeCatalog(t, files), nil)
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
	version := cat.Version()
	files["a.json"] = strings.Replace(files["a.json"], `"scopes":["s:x"]`, `"scopes":["s:y"]`, 1)
	if other, _ := LoadDir(writeCatalog(t, files), nil); other.Version() == version {
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

// TestVisibilityHint: the no-match hint names the caller's own words, not
// the word of a hidden item its typo was corrected to.
func TestVisibilityHint(t *testing.T) {
	dir := writeCatalog(t, map[string]string{
		"secret.json": `{"server":"secret","visibility":{"groups":["ops"]},"tools":[{"name":"launch","description":"Launch the kubernetes cluster","inputSchema":{"type":"object"}}]}`,
		"open.json": `{"server":"open","tools":[
			{"name":"weather","description":"Show the weather forecast for a city","inputSchema":{"type":"object"}},
			{"name":"rain","description":"Rain forecast","inputSchema":{"type":"object"}},
			{"name":"wind","description":"Wind forecast","inputSchema":{"type":"object"}},
			{"name":"tides","description":"Tide forecast","inputSchema":{"type":"object"}},
			{"name":"sun","description":"Sunrise forecast","inputSchema":{"type":"object"}}]}`,
	})
	x := mustBuild(t, dir)
	q := ext.Query{Kind: ext.KindTool, Text: "kubernetis forecast", Limit: 5}
	page, err := x.Search(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(page.Hint, "kubernetes") || !strings.Contains(page.Hint, "kuberneti") {
		t.Errorf("got hint %q, want it to name the caller's word (stem kuberneti), never the hidden kubernetes", page.Hint)
	}
	for _, h := range page.Items {
		if h.Server == "secret" {
			t.Errorf("a caller without groups found %s", h.Object)
		}
	}
	ops := ext.WithAccess(context.Background(), ext.Access{Groups: []string{"ops"}})
	page, err = x.Search(ops, q)
	if err != nil || len(page.Items) == 0 || page.Items[0].Server != "secret" {
		t.Fatalf("ops caller: got %+v, %v, want the secret tool first", page, err)
	}
	var obj map[string]any
	json.Unmarshal(page.Items[0].Object, &obj)
	if obj["name"] != "secret__launch" {
		t.Errorf("got %v, want secret__launch", obj["name"])
	}
}
