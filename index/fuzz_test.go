package index

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval/retrievaltest"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
)

// FuzzSearch searches a small built index with arbitrary text: nothing
// panics, every search ends within its context's deadline, a failure is
// only ever invalid params, and the bleve query built from the text holds
// only term, disjunction, conjunction and match-none clauses (no
// wildcard, regexp, fuzzy or query-string clause that could scan the
// dictionary), no more of them than the words of the text call for. The
// term-at-a-time scorer ranks as bleve's own engine does (internal/bm25).
// A hint names only words of the text (checkHintWords).
func FuzzSearch(f *testing.F) {
	x := mustBuild(f, "testdata/catalog")
	for _, seed := range []string{"weather forecast", "*a*", "description:/.*/", "nots~2", "+a -b",
		"forecsat tomorow", "\xff\xfe", "a\x00b", "日本語 テキスト", "getURLs_for-the.api/v2:x",
		"delete a note from s3", "Notiz löschen", "l’agenda d'aujourd'hui", "ノートを作成して weather", "jot down a note saying \"hi\"",
		"spin the notebook up «x", "notebookweather", "Kalendereintrag erstellen"} {
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
		retrievaltest.CompareWithBleve(t, x.RetrievalSource, bleveOf(t, x), q, ext.Access{All: true}, 20)
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		start := time.Now()
		page, err := x.Search(ctx, q)
		if took := time.Since(start); took > 3*time.Second {
			t.Fatalf("search for %q took %s, want it cut at the 2 s deadline", text, took)
		}
		if err != nil && !errors.Is(err, ext.ErrInvalidParams) && ctx.Err() == nil {
			t.Fatalf("search for %q: %v, want a result or invalid params", text, err)
		}
		if err == nil {
			checkHintWords(t, text, page.Hint)
		}
	})
}

// FuzzHints searches the default catalog, whose hints name what the best
// match lacks (retrieval nomatch.go), with arbitrary text: a hint names only words
// of the text (checkHintWords), whatever the text's languages, typos,
// phrases, quotes and words run together.
func FuzzHints(f *testing.F) {
	x := defaultIndex(f)
	for _, seed := range []string{"read a file from s3", "READ A FILE FROM S3's bucket", "craete a pul request",
		"memories of facts about persons", "Flug nach Paris buchen", "s3からファイルを読む", "从s3读取文件",
		"turn on the living room lights", "Thursday's standup notes", "pizzaorder for the team", "/tmp/x.foo in s3",
		"send a message saying \"the s3 bucket is down\"", "spin up a vm on hetzner's cloud", "l’équipe d'Ops"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		page, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: text, Limit: 5})
		if err == nil {
			checkHintWords(t, text, page.Hint)
		}
	})
}

// checkHintWords fails unless each word a hint says the best match lacks
// is the caller's own, written in text (or "file", what a file path
// stands for: text.FilesAsWord), never a stem, a gloss or a correction.
func checkHintWords(t *testing.T, text, hint string) {
	t.Helper()
	_, lacked, ok := strings.Cut(hint, "lacks ")
	if !ok {
		return
	}
	for _, label := range strings.Split(lacked, ", ") {
		for _, w := range strings.Fields(label) {
			if w != "file" && !strings.Contains(text, w) {
				t.Fatalf("search for %q: hint %q names %q, not a word of the query", text, hint, w)
			}
		}
	}
}

// checkQueryTree builds the bleve query Search would run for q and checks
// its clauses.
func checkQueryTree(t *testing.T, x *Index, q ext.Query) {
	t.Helper()
	terms := request(t, x, q, ext.Access{All: true}).Terms
	res := ranked(t, x, q, ext.Access{All: true})
	if res == nil {
		return
	}
	leaves, err := termLeaves(res.Query.Bleve())
	if err != nil {
		t.Fatalf("query for %q: %v", q.Text, err)
	}
	if want := len(schema.TextFields)*len(terms) + 2 + len(q.Filter.Servers) + len(q.Filter.Annotations); leaves > want {
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
