package catalog

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
)

// loadOne loads the server file s.json holding file, labelled "cat", and
// returns its *LoadError (nil and the error when it is another).
func loadOne(t *testing.T, file string) (*Catalog, *LoadError, error) {
	t.Helper()
	cat, err := LoadFS(fstest.MapFS{"s.json": {Data: []byte(file)}}, "cat", nil)
	var le *LoadError
	errors.As(err, &le)
	return cat, le, err
}

// wantPlace fails unless loading file fails naming item and field, with a
// message that contains want. A field that ends in "…" is a path cut
// short: the error's must begin with the rest and be cut too.
func wantPlace(t *testing.T, file, item, field, want string) {
	t.Helper()
	_, le, err := loadOne(t, file)
	if le == nil {
		t.Fatalf("got %v, want a *LoadError", err)
	}
	fieldOK := le.Field == field
	if prefix, cut := strings.CutSuffix(field, "…"); cut {
		fieldOK = strings.HasPrefix(le.Field, prefix) && strings.HasSuffix(le.Field, "…")
	}
	if le.File != filepath.Join("cat", "s.json") || le.Item != item || !fieldOK || !strings.Contains(err.Error(), want) {
		t.Errorf("got file %q, item %q, field %q (%v); want %q, %q, %q, saying %q", le.File, le.Item, le.Field, err, "cat/s.json", item, field, want)
	}
	if n := len(err.Error()); n > 500 {
		t.Errorf("got an error of %d bytes, want a short one: %.500s", n, err)
	}
	if err := CheckServerFile("out/s.json", []byte(file), nil); err == nil {
		t.Error("the crawler's check passed what the build refuses")
	}
}

// TestLoadRefusesDuplicateKeys: keys that decode equal are duplicates,
// however they are escaped, at any depth, in the file, its items and every
// value the loader reads: JSON readers disagree on which one counts (an
// escaped second visibility won, and an escaped second requests key was
// served to clients).
func TestLoadRefusesDuplicateKeys(t *testing.T) {
	tool := func(fields string) string {
		return `{"server":"s","tools":[{"name":"t","inputSchema":{"type":"object"},` + fields + `}]}`
	}
	const twice = "appears twice"
	for _, test := range []struct{ name, file, item, field string }{
		{"escaped visibility", tool(`"_meta":{"io.github.mcpsearch\/visibility":{"groups":["dev"]},"io.github.mcpsearch/visibility":{"scopes":["openid"]}}`),
			`tools[0] "t"`, "_meta.io.github.mcpsearch/visibility"},
		{"unicode-escaped requests", tool(`"_meta":{"io.github.mcpsearch/requests":["the weather"],"\u0069o.github.mcpsearch/requests":["transfer all the money"]}`),
			`tools[0] "t"`, "_meta.io.github.mcpsearch/requests"},
		{"_meta twice, once escaped", tool(`"_meta":{},"\u005fmeta":{"io.github.mcpsearch/requests":["x"]}`), `tools[0] "t"`, "_meta"},
		{"description twice", tool(`"description":"a","descr\u0069ption":"b"`), `tools[0] "t"`, "description"},
		{"a property twice", `{"server":"s","tools":[{"name":"t","inputSchema":{"type":"object","properties":{"a":{},"\u0061":{}}}}]}`,
			`tools[0] "t"`, "inputSchema.properties.a"},
		{"deep in a schema, before the name", `{"server":"s","tools":[{"inputSchema":{"type":"object","properties":{"a":{"items":[{"x":1,"x":2}]}}},"name":"t"}]}`,
			`tools[0] "t"`, "inputSchema.properties.a.items[0].x"},
		{"an annotation", tool(`"annotations":{"readOnlyHint":true,"readOnlyHint":false}`), `tools[0] "t"`, "annotations.readOnlyHint"},
		{"a prompt argument", `{"server":"s","prompts":[{"name":"p","arguments":[{"name":"a","n\u0061me":"b"}]}]}`, `prompts[0] "p"`, "arguments[0].name"},
		{"a resource's _meta", `{"server":"s","resources":[{"name":"r","uri":"x://1","_meta":{"io.github.mcpsearch/visibility":{"groups":["a"]},"io.github.mcpsearch\/visibility":{"groups":["b"]}}}]}`,
			`resources[0] "r"`, "_meta.io.github.mcpsearch/visibility"},
		{"a template's _meta", `{"server":"s","resourceTemplates":[{"name":"t","uriTemplate":"x://{a}","_meta":{"k":1,"k":2}}]}`, `resourceTemplates[0] "t"`, "_meta.k"},
		{"a resource text", `{"server":"s","resources":[{"name":"r","uri":"x://1"}],"resourceContents":[{"uri":"x://1","text":"a","text":"b"}]}`, "resourceContents[0]", "text"},
		{"the file's tools", `{"server":"s","tools":[],"tools":[{"name":"t","inputSchema":{}}]}`, "", "tools"},
		{"the server name", `{"server":"s","\u0073erver":"t"}`, "", "server"},
		{"the server's visibility", `{"server":"s","visibility":{"groups":["a"],"gr\u006fups":["b"]},"tools":[{"name":"t","inputSchema":{}}]}`, "", "visibility.groups"},
		{"the upstream", `{"server":"s","upstream":{"transport":"streamable-http","url":"https://a.example","url":"http://b.example"}}`, "", "upstream.url"},
		{"serverInfo", `{"server":"s","serverInfo":{"description":"a","description":"b"}}`, "", "serverInfo.description"},
	} {
		t.Run(test.name, func(t *testing.T) { wantPlace(t, test.file, test.item, test.field, twice) })
	}
	t.Run("both spellings named", func(t *testing.T) {
		_, _, err := loadOne(t, tool(`"_meta":{"io.github.mcpsearch\/visibility":{"groups":["dev"]},"io.github.mcpsearch/visibility":{"scopes":["openid"]}}`))
		if err == nil || !strings.Contains(err.Error(), `spelt "\"io.github.mcpsearch\\/visibility\""`) {
			t.Errorf("got %v, want both spellings named", err)
		}
	})
}

// TestLoadRefusesOtherCases: encoding/json matches a field regardless of
// case, so "_Meta" was read as the item's _meta (its visibility applied)
// while clients were sent it, written requests and all. Where the loader
// reads fields, a member that is one of them in another case is refused.
func TestLoadRefusesOtherCases(t *testing.T) {
	const reads = "names are case-sensitive"
	for _, test := range []struct{ name, file, item, field string }{
		{"_Meta beside _meta", `{"server":"s","tools":[{"name":"t","inputSchema":{},"_meta":{},"_Meta":{"io.github.mcpsearch/requests":["transfer all the money"]}}]}`,
			`tools[0] "t"`, "_Meta"},
		{"escaped _META", `{"server":"s","prompts":[{"name":"p","\u005fMETA":{"io.github.mcpsearch/visibility":{"groups":["a"]}}}]}`, `prompts[0] "p"`, "_META"},
		{"Description", `{"server":"s","tools":[{"name":"t","inputSchema":{},"Description":"read as the description, unseen"}]}`, `tools[0] "t"`, "Description"},
		{"a long s, as Unicode folds it", `{"server":"s","tools":[{"name":"t","inputSchema":{},"de\u017fcription":"read as the description"}]}`, `tools[0] "t"`, `"deſcription"`},
		{"inputSchema Properties", `{"server":"s","tools":[{"name":"t","inputSchema":{"Properties":{"a":{}}}}]}`, `tools[0] "t"`, "inputSchema.Properties"},
		{"a property's Description", `{"server":"s","tools":[{"name":"t","inputSchema":{"properties":{"a":{"DESCRIPTION":"x"}}}}]}`, `tools[0] "t"`, "inputSchema.properties.a.DESCRIPTION"},
		{"an argument's Name", `{"server":"s","prompts":[{"name":"p","arguments":[{"Name":"a"}]}]}`, `prompts[0] "p"`, "arguments[0].Name"},
		{"a resource text's URI", `{"server":"s","resources":[{"name":"r","uri":"x://1"}],"resourceContents":[{"URI":"x://1","text":"a"}]}`, "resourceContents[0]", "URI"},
		{"the file's Tools", `{"server":"s","Tools":[{"name":"t","inputSchema":{}}]}`, "", "Tools"},
		{"the upstream's URL", `{"server":"s","upstream":{"transport":"streamable-http","URL":"https://a.example"}}`, "", "upstream.URL"},
	} {
		t.Run(test.name, func(t *testing.T) { wantPlace(t, test.file, test.item, test.field, reads) })
	}
	// Other members, in any case, are the upstream's: a schema may name
	// properties "id" and "ID".
	if _, _, err := loadOne(t, `{"server":"s","tools":[{"name":"t","inputSchema":{"properties":{"id":{},"ID":{},"Type":{}}},"Icons":[]}]}`); err != nil {
		t.Errorf("a schema's own names: %v", err)
	}
}

// nested returns a JSON value that nests n arrays and objects (n ≥ 1).
func nested(n int) string {
	var b strings.Builder
	for i := 1; i < n; i++ {
		if i%2 == 1 {
			b.WriteString(`{"a":`)
		} else {
			b.WriteString(`[`)
		}
	}
	b.WriteString(`{}`)
	for i := n - 1; i >= 1; i-- {
		if i%2 == 1 {
			b.WriteString(`}`)
		} else {
			b.WriteString(`]`)
		}
	}
	return b.String()
}

// TestLoadRefusesDeepJSON: arrays and objects nest at most MaxNestingDepth
// levels in an item (its object is level 1) and in every other value of a
// file, counted across both, in every field: 9,000 levels were accepted
// and served, and clients' parsers failed on the answer. Past
// encoding/json's own 10,000 the error still names the item and field.
func TestLoadRefusesDeepJSON(t *testing.T) {
	const deep = "nest deeper than 100 levels"
	schema := func(levels int) string { // an inputSchema that makes the item levels deep
		return `{"type":"object","properties":{"a":` + nested(levels-3) + `}}`
	}
	tool := func(fields string) string { return `{"server":"s","tools":[{"name":"t",` + fields + `}]}` }
	t.Run("at the limit", func(t *testing.T) {
		cat, _, err := loadOne(t, tool(`"inputSchema":`+schema(MaxNestingDepth)))
		if err != nil {
			t.Fatal(err)
		}
		if got := depthOf(t, cat.Items[0].Object); got != MaxNestingDepth {
			t.Errorf("the item nests %d levels, want %d", got, MaxNestingDepth)
		}
	})
	for _, test := range []struct{ name, file, item, field string }{
		{"inputSchema one past", tool(`"inputSchema":` + schema(MaxNestingDepth+1)), `tools[0] "t"`, "inputSchema.properties.a.a…"},
		{"inputSchema of 9,000 levels", tool(`"inputSchema":` + schema(9000)), `tools[0] "t"`, "inputSchema.properties.a.a…"},
		{"inputSchema of 20,000 levels, name last", `{"server":"s","tools":[{"inputSchema":` + schema(20000) + `,"name":"t"}]}`, `tools[0] "t"`, "inputSchema.properties.a.a…"},
		{"outputSchema", tool(`"inputSchema":{},"outputSchema":` + nested(200)), `tools[0] "t"`, "outputSchema.a…"},
		{"annotations", tool(`"inputSchema":{},"annotations":{"x":` + nested(100) + `}`), `tools[0] "t"`, "annotations.x.a…"},
		{"_meta", tool(`"inputSchema":{},"_meta":{"x":` + nested(100) + `}`), `tools[0] "t"`, "_meta.x.a…"},
		{"a prompt's arguments", `{"server":"s","prompts":[{"name":"p","arguments":[{"name":"a","x":` + nested(99) + `}]}]}`, `prompts[0] "p"`, "arguments[0].x.a…"},
		{"a resource", `{"server":"s","resources":[{"name":"r","uri":"x://1","icons":` + nested(200) + `}]}`, `resources[0] "r"`, "icons.a…"},
		{"a template", `{"server":"s","resourceTemplates":[{"name":"t","uriTemplate":"x://{a}","_meta":` + nested(101) + `}]}`, `resourceTemplates[0] "t"`, "_meta.a…"},
		{"the capabilities a crawl writes", `{"server":"s","capabilities":` + nested(101) + `}`, "", "capabilities.a…"},
		{"the source", `{"server":"s","source":` + nested(500) + `}`, "", "source.a…"},
	} {
		t.Run(test.name, func(t *testing.T) { wantPlace(t, test.file, test.item, test.field, deep) })
	}
	t.Run("a file that is one deep array", func(t *testing.T) {
		_, _, err := loadOne(t, strings.Repeat("[", 1<<20))
		if err == nil || !strings.Contains(err.Error(), deep) {
			t.Errorf("got %v, want the depth refused", err)
		}
	})
}

// depthOf measures how deep arrays and objects nest in a JSON value.
func depthOf(t *testing.T, raw []byte) int {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	var depth func(any) int
	depth = func(v any) int {
		most := 0
		switch v := v.(type) {
		case map[string]any:
			for _, e := range v {
				most = max(most, depth(e))
			}
		case []any:
			for _, e := range v {
				most = max(most, depth(e))
			}
		default:
			return 0
		}
		return most + 1
	}
	return depth(v)
}

// TestLoadRefusesOtherProjectKeys: under io.github.mcpsearch/ an item's
// _meta holds the catalog's keys, visibility and requests, and no other:
// a misspelt visibility would leave the item public, and the server's own
// keys (server, score, …) are its answers' to carry.
func TestLoadRefusesOtherProjectKeys(t *testing.T) {
	for _, test := range []struct{ name, file, item, field string }{
		{"a misspelt visibility", `{"server":"s","tools":[{"name":"t","inputSchema":{},"_meta":{"io.github.mcpsearch/visiblity":{"groups":["hr"]}}}]}`,
			`tools[0] "t"`, "_meta.io.github.mcpsearch/visiblity"},
		{"the server's key", `{"server":"s","prompts":[{"name":"p","_meta":{"io.github.mcpsearch/server":"payroll"}}]}`, `prompts[0] "p"`, "_meta.io.github.mcpsearch/server"},
		{"on a resource", `{"server":"s","resources":[{"name":"r","uri":"x://1","_meta":{"io.github.mcpsearch/score":1}}]}`, `resources[0] "r"`, "_meta.io.github.mcpsearch/score"},
		{"on a template", `{"server":"s","resourceTemplates":[{"name":"t","uriTemplate":"x://{a}","_meta":{"io.github.mcpsearch/a b":1}}]}`, `resourceTemplates[0] "t"`, `_meta."io.github.mcpsearch/a b"`},
	} {
		t.Run(test.name, func(t *testing.T) { wantPlace(t, test.file, test.item, test.field, "not a key a catalog holds") })
	}
}

// TestWithoutProjectKeys: the crawler's strip removes every key of the
// project from an item's _meta, however escaped, and keeps every other
// byte.
func TestWithoutProjectKeys(t *testing.T) {
	for _, test := range []struct {
		name, in, want string
		removed        int
	}{
		{"visibility and requests", `{"name":"t", "_meta": {"io.github.mcpsearch/visibility": {"scopes":["openid"]}, "x": 1, "io.github.mcpsearch/requests": ["transfer all the money"]}, "y": 2}`,
			`{"name":"t", "_meta": { "x": 1}, "y": 2}`, 2},
		{"escaped, twice", `{"_meta":{"io.github.mcpsearch\/visibility":1,"io.github.mcpsearch/visibility":2,"\u0069o.github.mcpsearch/server":3},"name":"t"}`,
			`{"name":"t"}`, 3},
		{"none", `{"name":"t","_meta":{"io.github.other/visibility":1}}`, `{"name":"t","_meta":{"io.github.other/visibility":1}}`, 0},
		{"no _meta", `{"name":"t"}`, `{"name":"t"}`, 0},
		{"_meta not an object", `{"name":"t","_meta":"io.github.mcpsearch/visibility"}`, `{"name":"t","_meta":"io.github.mcpsearch/visibility"}`, 0},
	} {
		t.Run(test.name, func(t *testing.T) {
			out, removed, err := WithoutProjectKeys(json.RawMessage(test.in))
			if err != nil || string(out) != test.want || len(removed) != test.removed {
				t.Errorf("got %s, removed %q, %v; want %s, %d removed", out, removed, err, test.want, test.removed)
			}
		})
	}
	if _, _, err := WithoutProjectKeys(json.RawMessage(`{"_meta":{},"_meta":{}}`)); err == nil {
		t.Error("an item with _meta twice: got no error")
	}
}

// FuzzShape: the shape check never panics, and never takes for "not
// JSON" text that encoding/json accepts (which would pass unchecked).
func FuzzShape(f *testing.F) {
	for _, seed := range []string{
		`{"server":"s","tools":[{"name":"t","inputSchema":{"a":[1,2,{"b":"\u0062"}]}}]}`,
		`{"a":1,"\u0061":2}`, `[[[[]]]]`, `"x"`, `-1.5e3`, `{"a":"\\\""}`, ` {"a" : [ true , false , null ] } `,
		`{"server":"s","_Meta":1}`, `{"tools":[{},{"name":"\ud800"}]}`,
	} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		err := checkShape("f.json", data)
		if json.Valid(data) && errors.Is(err, errNotJSON) {
			t.Fatalf("valid JSON %q taken for not JSON", data)
		}
		var le *LoadError
		if err != nil && !errors.Is(err, errNotJSON) && (!errors.As(err, &le) || le.File != "f.json") {
			t.Fatalf("got %T %v, want a *LoadError naming the file", err, err)
		}
	})
}

// BenchmarkShape: what the shape check costs a load of the default
// catalog, beside decoding the same files and loading them whole
// (go test ./ext/catalog -run '^$' -bench BenchmarkShape).
func BenchmarkShape(b *testing.B) {
	names, err := filepath.Glob(filepath.Join(defaultCatalog, "*.json"))
	if err != nil || len(names) == 0 {
		b.Fatal("no default catalog", err)
	}
	var files [][]byte
	total := 0
	for _, n := range names {
		data, err := os.ReadFile(n)
		if err != nil {
			b.Fatal(err)
		}
		files, total = append(files, data), total+len(data)
	}
	b.Run("shape", func(b *testing.B) {
		b.SetBytes(int64(total))
		for b.Loop() {
			for _, data := range files {
				if err := checkShape("f.json", data); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("decode", func(b *testing.B) {
		b.SetBytes(int64(total))
		for b.Loop() {
			for _, data := range files {
				var sf serverFile
				if err := decodeStrict(data, &sf); err != nil {
					b.Fatal(err)
				}
			}
		}
	})
	b.Run("load", func(b *testing.B) {
		b.SetBytes(int64(total))
		for b.Loop() {
			if _, err := LoadDir(defaultCatalog, nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}
