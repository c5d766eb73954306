package catalog

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

// TestRequestsCatalog: an item's requests are read into Item.Requests,
// leave the object clients are sent (its other _meta kept), and change the
// index version.
func TestRequestsCatalog(t *testing.T) {
	files := map[string]string{"a.json": `{"server":"a","tools":[
		{"name":"open_ticket","inputSchema":{"type":"object"},"_meta":{"io.github.mcpsearch/requests":["file a bug about the login page","チケットを作成して"],"other":1}},
		{"name":"plain","inputSchema":{"type":"object"},"_meta":{"io.github.mcpsearch/requests":["x marks"]}}],
		"prompts":[{"name":"standup","_meta":{"io.github.mcpsearch/requests":["write my standup notes"]}}]}`}
	cat, err := load(files)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"a__open_ticket": {"file a bug about the login page", "チケットを作成して"},
		"a__plain":       {"x marks"},
		"a__standup":     {"write my standup notes"},
	}
	for _, it := range cat.Items {
		if !slices.Equal(it.Requests, want[it.Name]) {
			t.Errorf("%s: requests %q, want %q", it.Name, it.Requests, want[it.Name])
		}
		if strings.Contains(string(it.Object), "requests") || strings.Contains(string(it.Object), "login page") {
			t.Errorf("%s: the object clients are sent holds the requests: %s", it.Name, it.Object)
		}
	}
	if obj := string(cat.Items[slices.IndexFunc(cat.Items, func(it Item) bool { return it.Name == "a__open_ticket" })].Object); !strings.Contains(obj, `"_meta":{"other":1}`) {
		t.Errorf("open_ticket: object %s lost its other _meta", obj)
	}
	version := cat.Version(1)
	files["a.json"] = strings.Replace(files["a.json"], "x marks", "x marks the spot", 1)
	if other, _ := load(files); other.Version(1) == version {
		t.Error("changing an item's requests kept the index version")
	}
}

// TestRequestsLoadErrors: bad requests are refused naming the file, the
// item and the field, down to the request at fault.
func TestRequestsLoadErrors(t *testing.T) {
	tool := func(requests string) string {
		return `{"server":"a","tools":[{"name":"t","inputSchema":{"type":"object"},"_meta":{"io.github.mcpsearch/requests":` + requests + `}}]}`
	}
	many := make([]string, MaxRequestsPerItem+1)
	for i := range many {
		many[i] = fmt.Sprintf("%q", fmt.Sprintf("request number %d", i))
	}
	field := "field _meta.io.github.mcpsearch/requests"
	for _, test := range []struct {
		name, file string
		want       []string
	}{
		{"not an array", tool(`"open a ticket"`), []string{"a.json", `tools[0] "t"`, field, "array of strings"}},
		{"null", tool(`null`), []string{field, "omit the key"}},
		{"empty", tool(`[]`), []string{field, "empty array"}},
		{"not a string", tool(`["ok", 3]`), []string{field, "array of strings"}},
		{"blank", tool(`["ok", "   "]`), []string{field + "[1]", "blank"}},
		{"two lines", tool(`["ok", "first line\nsecond line"]`), []string{field + "[1]", "one line of text"}},
		{"bidi override", tool(`["ok", "abc\u202edef"]`), []string{field + "[1]", "bidirectional"}},
		{"too long", tool(`["` + strings.Repeat("a", MaxRequestBytes+1) + `"]`), []string{field + "[0]", "over the limit"}},
		{"too many", tool(`[` + strings.Join(many, ",") + `]`), []string{field, fmt.Sprintf("%d requests, over the limit of %d", MaxRequestsPerItem+1, MaxRequestsPerItem)}},
		{"duplicate", tool(`["Open a ticket", "open  a ticket"]`), []string{field + "[1]", "the same request as [0]"}},
		{"invalid UTF-8", tool("[\"ok\", \"caf\xe9\"]"), []string{"a.json", "not valid UTF-8"}},
	} {
		t.Run(test.name, func(t *testing.T) { wantLoadError(t, test.file, test.want) })
	}
}

// TestRequestsLeaveTheObjectAsListed: taking the requests out keeps every
// other byte of the object — the order of its members, characters as the
// upstream wrote them — so an item is served as it was listed.
func TestRequestsLeaveTheObjectAsListed(t *testing.T) {
	files := map[string]string{"a.json": `{"server":"a","tools":[
		{"name":"z","inputSchema":{"type":"object"},"description":"x < y & z","_meta":{"io.github.mcpsearch/requests":["r"],"b":1}},
		{"_meta":{"io.github.mcpsearch/requests":["q"]},"name":"y","inputSchema":{"type":"object"}},
		{"name":"w","_meta":{"c":2, "io.github.mcpsearch/requests":["p"]},"inputSchema":{"type":"object"}}]}`}
	cat, err := load(files)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{
		"a__z": `{"name":"a__z","inputSchema":{"type":"object"},"description":"x < y & z","_meta":{"b":1}}`,
		"a__y": `{"name":"a__y","inputSchema":{"type":"object"}}`,
		"a__w": `{"name":"a__w","_meta":{"c":2},"inputSchema":{"type":"object"}}`,
	}
	for _, it := range cat.Items {
		if string(it.Object) != want[it.Name] {
			t.Errorf("%s: object %s, want %s", it.Name, it.Object, want[it.Name])
		}
	}
}

// TestWithMetaKey: setting a _meta key keeps every other byte of the
// object, whether the key, or _meta itself, is there already or not.
func TestWithMetaKey(t *testing.T) {
	for _, c := range []struct{ in, want string }{
		{`{"name":"a","d":"x < y"}`, `{"name":"a","d":"x < y","_meta":{"k":["r"]}}`},
		{`{"name":"a","_meta":{}}`, `{"name":"a","_meta":{"k":["r"]}}`},
		{`{"_meta":{"b":1},"name":"a"}`, `{"_meta":{"b":1,"k":["r"]},"name":"a"}`},
		{`{"_meta":{"k":["old", "x"],"b":1}}`, `{"_meta":{"k":["r"],"b":1}}`},
		{`{}`, `{"_meta":{"k":["r"]}}`},
	} {
		got, err := WithMetaKey([]byte(c.in), "k", []byte(`[ "r" ]`))
		if err != nil || string(got) != c.want {
			t.Errorf("%s: got %s, %v; want %s", c.in, got, err, c.want)
		}
	}
	for _, bad := range []string{`[1]`, `{"_meta":[]}`, `{"_meta":{"k":1,"k":2}}`} {
		if got, err := WithMetaKey([]byte(bad), "k", []byte(`1`)); err == nil {
			t.Errorf("%s: got %s, want an error", bad, got)
		}
	}
}

// TestCheckRequestIsTheLoadersRule: CheckRequest refuses exactly the
// requests the loader refuses, and RequestKey is equal for exactly the
// pairs the loader calls the same request.
func TestCheckRequestIsTheLoadersRule(t *testing.T) {
	tool := func(requests ...string) string {
		quoted := make([]string, len(requests))
		for i, r := range requests {
			quoted[i] = fmt.Sprintf("%q", r)
		}
		return `{"server":"a","tools":[{"name":"t","inputSchema":{"type":"object"},"_meta":{"io.github.mcpsearch/requests":[` + strings.Join(quoted, ",") + `]}}]}`
	}
	for _, r := range []string{"open a ticket", "  ", "first\nsecond", "abc\u202edef", "tab\there", strings.Repeat("a", MaxRequestBytes), strings.Repeat("a", MaxRequestBytes+1), "¿dónde está?", "チケットを作成して"} {
		_, loadErr := load(map[string]string{"a.json": tool(r)})
		if err := CheckRequest(r); (err == nil) != (loadErr == nil) {
			t.Errorf("%.40q: CheckRequest says %v, the loader %v", r, err, loadErr)
		}
	}
	if CheckRequest("caf\xe9") == nil {
		t.Error("CheckRequest took invalid UTF-8")
	}
	for _, pair := range [][2]string{{"Open a ticket", "open  a ticket"}, {"open a ticket", "open a tickets"}, {" x y ", "X Y"}, {"a-b", "a b"}} {
		_, loadErr := load(map[string]string{"a.json": tool(pair[0], pair[1])})
		if same := RequestKey(pair[0]) == RequestKey(pair[1]); same != (loadErr != nil) {
			t.Errorf("%q, %q: RequestKey says same %v, the loader says %v", pair[0], pair[1], same, loadErr)
		}
	}
}
