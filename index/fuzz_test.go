package index

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/mcpsearch/mcpsearch/ext"
)

// FuzzSearch searches a small built index with arbitrary text: nothing
// panics, every search ends within its context's deadline, a failure is
// only ever invalid params, and the bleve query built from the text holds
// only term, disjunction, conjunction and match-none clauses (no
// wildcard, regexp, fuzzy or query-string clause that could scan the
// dictionary), no more of them than the words of the text call for. The
// term-at-a-time scorer ranks as bleve's own engine does (bm25.go).
func FuzzSearch(f *testing.F) {
	x := mustBuild(f, "testdata/catalog")
	for _, seed := range []string{"weather forecast", "*a*", "description:/.*/", "nots~2", "+a -b",
		"forecsat tomorow", "\xff\xfe", "a\x00b", "日本語 テキスト", "getURLs_for-the.api/v2:x"} {
		f.Add(seed, uint8(0), uint8(10), uint16(0), "")
	}
	f.Add("forecast", uint8(0), uint8(5), uint16(0), "weather")
	f.Fuzz(func(t *testing.T, text string, kind, limit uint8, offset uint16, server string) {
		q := ext.Query{Kind: ext.Kinds[int(kind)%len(ext.Kinds)], Text: text,
			Limit: int(limit) % (ext.MaxLimit + 1), Offset: int(offset) % ext.MaxSearchDepth}
		if server != "" {
			q.Filter = ext.Filter{Servers: []string{server}, Annotations: map[string]any{"readOnlyHint": true}}
		}
		checkQueryTree(t, x, q)
		compareWithBleve(t, x, q, ext.Access{All: true}, 20)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		start := time.Now()
		_, err := x.Search(ctx, q)
		if took := time.Since(start); took > 3*time.Second {
			t.Fatalf("search for %q took %s, want it cut at the 2 s deadline", text, took)
		}
		if err != nil && !errors.Is(err, ext.ErrInvalidParams) && ctx.Err() == nil {
			t.Fatalf("search for %q: %v, want a result or invalid params", text, err)
		}
	})
}

// checkQueryTree builds the bleve query Search would run for q and checks
// its clauses.
func checkQueryTree(t *testing.T, x *Index, q ext.Query) {
	t.Helper()
	qterms, err := x.resolveTerms(q.Kind, analyze(q.Text))
	if err != nil {
		t.Fatalf("resolving the terms of %q: %v", q.Text, err)
	}
	terms := termStrings(qterms)
	bq, err := searchQuery(q, terms, x.manifest.Separator, true, ext.Access{})
	if err != nil {
		t.Fatalf("query for %q: %v", q.Text, err)
	}
	leaves, err := termLeaves(bq.bleveQuery())
	if err != nil {
		t.Fatalf("query for %q: %v", q.Text, err)
	}
	if want := len(fieldBoosts)*len(terms) + 2 + len(q.Filter.Servers) + len(q.Filter.Annotations); leaves > want {
		t.Fatalf("query for %q (%d terms) has %d term clauses, want at most %d", q.Text, len(terms), leaves, want)
	}
}

// termLeaves counts the term clauses of q and refuses any clause other
// than term, disjunction, conjunction and match-none.
func termLeaves(q query.Query) (int, error) {
	var children []query.Query
	switch q := q.(type) {
	case *query.TermQuery:
		return 1, nil
	case *query.MatchNoneQuery:
		return 0, nil
	case *query.DisjunctionQuery:
		children = q.Disjuncts
	case *query.ConjunctionQuery:
		children = q.Conjuncts
	default:
		return 0, fmt.Errorf("clause %T is not allowed", q)
	}
	n := 0
	for _, c := range children {
		k, err := termLeaves(c)
		if err != nil {
			return 0, err
		}
		n += k
	}
	return n, nil
}

// FuzzLoadFS loads a catalog of one file with arbitrary bytes: the result
// is a catalog or a *LoadError naming the file, never a panic.
func FuzzLoadFS(f *testing.F) {
	for _, seed := range []string{
		`{"server":"w","tools":[{"name":"get_weather","description":"weather","inputSchema":{"type":"object"}}]}`,
		`{"server":"p","prompts":[{"name":"summarize","arguments":[{"name":"text","required":true}]}]}`,
		`{"server":"r","resources":[{"uri":"file:///a","name":"a"}],"resourceTemplates":[{"uriTemplate":"file:///{p}","name":"t"}]}`,
		`{"server":"u","upstream":{"transport":"streamable-http","url":"http://127.0.0.1:1/mcp"},"tools":[]}`,
		`{`, `[]`, `null`, `{"server":""}`, `{"server":"a__b","tools":[{"name":5}]}`,
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
