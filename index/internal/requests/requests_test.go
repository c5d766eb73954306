package requests

import (
	"context"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/index/internal/checksum"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// items are a small catalog in catalog order: three tools, one without
// requests, then a prompt.
func items() []catalog.Item {
	return []catalog.Item{
		{Kind: ext.KindTool, Name: "crm__add_lead", Requests: []string{
			"add a new lead to the pipeline", "new prospect from the trade fair", "neuen Lead anlegen"}},
		{Kind: ext.KindTool, Name: "crm__list_leads"},
		{Kind: ext.KindTool, Name: "notes__jot", Requests: []string{
			// one request repeating a word: a bag of requests would count it
			// three times, a request counts it as BM25 does
			"lead lead lead", "remember this for later"}},
		{Kind: ext.KindPrompt, Name: "crm__lead_summary", Requests: []string{"summarise a lead"}},
	}
}

// build writes the requests file of items into a temporary bundle and
// opens it; document numbers are the positions reversed, as a bleve build
// may number them.
func build(t *testing.T, its []catalog.Item) *Index {
	t.Helper()
	dir := t.TempDir()
	docs := make([]uint32, len(its))
	for pos := range docs {
		docs[pos] = uint32(len(its) - 1 - pos)
	}
	if err := Write(dir, its, docs); err != nil {
		t.Fatal(err)
	}
	x, err := Open(dir, len(its))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}

func terms(words ...string) []Term {
	var out []Term
	for _, w := range words {
		for _, a := range text.Analyze(w) {
			out = append(out, Term{Text: a, Weight: 1})
		}
	}
	return out
}

// TestBestRequestPerItem: an item counts its best request, not all its
// requests as one bag; matches come in catalog order with the item's
// document number, ordinal and request text.
func TestBestRequestPerItem(t *testing.T) {
	x := build(t, items())
	ms, err := x.Search(ext.KindTool, nil, 0).Best(context.Background(), terms("add a new lead"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 || ms[0].Pos != 0 || ms[1].Pos != 2 {
		t.Fatalf("matches %+v, want the items at positions 0 and 2", ms)
	}
	if got := x.Text(ms[0].Request); got != "add a new lead to the pipeline" {
		t.Errorf("best request of add_lead %q", got)
	}
	if ms[0].Doc != 3 || ms[1].Doc != 1 || ms[1].Ord != 2 {
		t.Errorf("document numbers %d, %d and ordinal %d, want 3, 1 and 2", ms[0].Doc, ms[1].Doc, ms[1].Ord)
	}
	if !(ms[0].Score > ms[1].Score) {
		t.Errorf("add_lead %.3f not above jot %.3f, whose request repeats lead", ms[0].Score, ms[1].Score)
	}
	if ms[0].Share <= 0 || ms[0].Share > 2 || ms[1].Share >= ms[0].Share {
		t.Errorf("shares %.3f and %.3f", ms[0].Share, ms[1].Share)
	}
	// best, not summed: the score of add_lead is that of its best request
	// alone, whatever its other requests hold
	alone := build(t, []catalog.Item{{Kind: ext.KindTool, Name: "a", Requests: []string{"add a new lead to the pipeline"}},
		{Kind: ext.KindTool, Name: "b"}, {Kind: ext.KindTool, Name: "c", Requests: []string{"lead lead lead", "remember this for later"}},
		{Kind: ext.KindPrompt, Name: "d", Requests: []string{"summarise a lead"}}})
	if _, err := alone.Search(ext.KindTool, nil, 0).Best(context.Background(), terms("add a new lead")); err != nil {
		t.Fatal(err)
	}
	// another language is matched as written
	de, _ := x.Search(ext.KindTool, nil, 0).Best(context.Background(), terms("Lead anlegen"))
	if len(de) == 0 || x.Text(de[0].Request) != "neuen Lead anlegen" {
		t.Errorf("German request not matched: %+v", de)
	}
	// kinds are apart
	ps, _ := x.Search(ext.KindPrompt, nil, 0).Best(context.Background(), terms("lead"))
	if len(ps) != 1 || ps[0].Pos != 3 || ps[0].Ord != 0 {
		t.Errorf("prompt matches %+v", ps)
	}
}

// TestBestIsNotABag: an item's many requests holding a word do not lift it
// above an item with one request holding it as well.
func TestBestIsNotABag(t *testing.T) {
	its := []catalog.Item{
		{Kind: ext.KindTool, Name: "many", Requests: []string{"rotate the key", "rotate a key now", "please rotate key", "key rotation"}},
		{Kind: ext.KindTool, Name: "one", Requests: []string{"rotate the key"}},
		{Kind: ext.KindTool, Name: "other", Requests: []string{"open a door", "water the plants"}},
	}
	x := build(t, its)
	ms, err := x.Search(ext.KindTool, nil, 0).Best(context.Background(), terms("rotate the key"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 2 || math.Abs(ms[0].Score-ms[1].Score) > 1e-9 {
		t.Fatalf("matches %+v: want many and one equal, by their one request \"rotate the key\"", ms)
	}
}

// TestBestCountsWhatTheCallerSees: a term's idf counts the requests of the
// items the caller sees, and an unseen item is never matched, so a word
// only hidden items' requests hold weighs as a word none holds.
func TestBestCountsWhatTheCallerSees(t *testing.T) {
	its := []catalog.Item{
		{Kind: ext.KindTool, Name: "seen", Requests: []string{"rotate the vault key"}},
		{Kind: ext.KindTool, Name: "hidden1", Requests: []string{"vault audit"}},
		{Kind: ext.KindTool, Name: "hidden2", Requests: []string{"vault snapshot"}},
	}
	x := build(t, its)
	onlyFirst := func(ord int) bool { return ord == 0 }
	ms, err := x.Search(ext.KindTool, x.View(ext.KindTool, onlyFirst), 0).Best(context.Background(), terms("vault"))
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) != 1 || ms[0].Pos != 0 {
		t.Fatalf("matches %+v, want the seen item only", ms)
	}
	// the same catalog but for the hidden items' word (the fields' average
	// lengths count every request, as BM25's do in package bm25)
	without := build(t, []catalog.Item{its[0],
		{Kind: ext.KindTool, Name: "hidden1", Requests: []string{"xyzzy audit"}},
		{Kind: ext.KindTool, Name: "hidden2", Requests: []string{"xyzzy snapshot"}}})
	want, _ := without.Search(ext.KindTool, without.View(ext.KindTool, onlyFirst), 0).Best(context.Background(), terms("vault"))
	if math.Abs(ms[0].Score-want[0].Score) > 1e-9 {
		t.Errorf("score %.4f with hidden items holding the word, %.4f with hidden items not holding it", ms[0].Score, want[0].Score)
	}
	all, _ := x.Search(ext.KindTool, nil, 0).Best(context.Background(), terms("vault"))
	if all[0].Score >= ms[0].Score {
		t.Errorf("seeing every item, vault's idf is no lower: %.4f, %.4f", all[0].Score, ms[0].Score)
	}
	if n := x.ItemsHolding(ext.KindTool, "audit", x.View(ext.KindTool, onlyFirst)); n != 0 {
		t.Errorf("a hidden item's word is held by %d items the caller sees", n)
	}
	if n := x.ItemsHolding(ext.KindTool, "vault", nil); n != 3 {
		t.Errorf("vault held by %d items, want 3", n)
	}
}

// TestBestBoundsPostings: past maxPostings the terms of most postings are
// left out, never the last.
func TestBestBoundsPostings(t *testing.T) {
	var its []catalog.Item
	for i := range 50 {
		r := []string{"common word here"}
		if i == 7 {
			r = append(r, "rare zebra")
		}
		its = append(its, catalog.Item{Kind: ext.KindTool, Name: "t" + strings.Repeat("x", i), Requests: r})
	}
	x := build(t, its)
	ms, _ := x.Search(ext.KindTool, nil, 10).Best(context.Background(), terms("common zebra"))
	if len(ms) != 1 || ms[0].Pos != 7 {
		t.Errorf("bounded to 10 postings: %d matches, want the zebra alone", len(ms))
	}
	ms, _ = x.Search(ext.KindTool, nil, 10).Best(context.Background(), terms("common"))
	if len(ms) != 50 {
		t.Errorf("the last term is never left out: %d matches, want 50", len(ms))
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	big := make([]catalog.Item, 5000)
	for i := range big {
		big[i] = catalog.Item{Kind: ext.KindTool, Name: "n", Requests: []string{"same words"}}
	}
	if _, err := build(t, big).Search(ext.KindTool, nil, 0).Best(ctx, terms("same words")); !errors.Is(err, context.Canceled) {
		t.Errorf("a cancelled search: %v, want context.Canceled", err)
	}
}

// TestOfAndText: an item's requests read back as written.
func TestOfAndText(t *testing.T) {
	its := items()
	x := build(t, its)
	for pos, it := range its {
		if got := x.Of(pos); !slices.Equal(got, it.Requests) {
			t.Errorf("requests of %s %q, want %q", it.Name, got, it.Requests)
		}
	}
	if x.Of(-1) != nil || x.Of(len(its)) != nil {
		t.Error("requests of an item past the catalog")
	}
	if x.Count(ext.KindTool) != 5 || x.Count(ext.KindPrompt) != 1 || x.Count(ext.KindResource) != 0 {
		t.Errorf("counts %d %d %d", x.Count(ext.KindTool), x.Count(ext.KindPrompt), x.Count(ext.KindResource))
	}
}

// writtenFile writes the requests file of its (document numbers in
// catalog order) into a temporary directory, and returns the directory
// and the file's bytes.
func writtenFile(t *testing.T, its []catalog.Item) (string, []byte) {
	t.Helper()
	dir := writeFile(t, its)
	data, err := os.ReadFile(filepath.Join(dir, File))
	if err != nil {
		t.Fatal(err)
	}
	return dir, data
}

// writeFile writes the requests file of its (document numbers in catalog
// order) into a temporary directory, and returns the directory.
func writeFile(tb testing.TB, its []catalog.Item) string {
	tb.Helper()
	dir := tb.TempDir()
	docs := make([]uint32, len(its))
	for pos := range docs {
		docs[pos] = uint32(pos)
	}
	if err := Write(dir, its, docs); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// TestDamagedFile: a file of another catalog, truncated, overlong or not a
// requests file is refused with an error naming it, never read past its
// end.
func TestDamagedFile(t *testing.T) {
	its := items()
	dir, data := writtenFile(t, its)
	if _, err := Open(dir, 5); err == nil || !strings.Contains(err.Error(), File) {
		t.Errorf("another catalog's count: %v", err)
	}
	for name, bad := range map[string][]byte{
		"empty":     {},
		"magic":     append([]byte("MCPSXX1\n"), data[8:]...),
		"truncated": data[:len(data)-1],
		"head only": data[:20],
		"overlong":  append(slices.Clone(data), 0),
	} {
		if err := os.WriteFile(filepath.Join(dir, File), bad, 0o644); err != nil {
			t.Fatal(err)
		}
		if x, err := Open(dir, len(its)); err == nil || !strings.Contains(err.Error(), File) {
			t.Errorf("%s: %v, want an error naming %s", name, err, File)
			if x != nil {
				x.Close()
			}
		}
	}
}

// TestDamagedRequests flips each byte of a requests file in turn: Open
// refuses the file, naming it, or the first read of the damaged part
// panics with a *checksum.Damage naming it (package index recovers it
// into the search's error), or every read answers as the sound file's
// does (the byte is one no answer depends on). No flip changes an
// answer.
func TestDamagedRequests(t *testing.T) {
	its := items()
	dir, data := writtenFile(t, its)
	sound, err := Open(dir, len(its))
	if err != nil {
		t.Fatal(err)
	}
	want := readEverything(t, sound, its)
	sound.Close()
	caught := 0
	for at := range data {
		bad := slices.Clone(data)
		bad[at] ^= 0x5a
		if err := os.WriteFile(filepath.Join(dir, File), bad, 0o644); err != nil {
			t.Fatal(err)
		}
		x, err := Open(dir, len(its))
		if err != nil {
			if !strings.Contains(err.Error(), File) {
				t.Errorf("byte %d: %v, want an error naming %s", at, err, File)
			}
			caught++
			continue
		}
		got, damage := readCatching(t, x, its)
		x.Close()
		switch {
		case damage != nil:
			if damage.File != File {
				t.Errorf("byte %d: damage found in %s, want %s", at, damage.File, File)
			}
			caught++
		case got != want:
			t.Errorf("byte %d: the damaged file answered otherwise, without an error:\n%s\nwant\n%s", at, got, want)
		}
	}
	t.Logf("%d of %d flipped bytes caught; the others changed no answer", caught, len(data))
}

// readCatching reads everything of x (readEverything), recovering the
// panic of a damaged part.
func readCatching(t *testing.T, x *Index, its []catalog.Item) (got string, damage *checksum.Damage) {
	defer func() {
		if p := recover(); p != nil {
			if d, ok := p.(*checksum.Damage); ok {
				damage = d
				return
			}
			panic(p)
		}
	}()
	return readEverything(t, x, its), nil
}

// readEverything reads every part of x that a search reads, for every
// word of its requests, and returns what it read.
func readEverything(t *testing.T, x *Index, its []catalog.Item) string {
	t.Helper()
	var words []string
	var b strings.Builder
	for pos, it := range its {
		for _, r := range it.Requests {
			words = append(words, strings.Fields(r)...)
		}
		fmt.Fprintln(&b, pos, x.Of(pos), x.Own(pos))
	}
	for _, k := range ext.Kinds {
		first, end := x.Items(k)
		fmt.Fprintln(&b, k, x.Count(k), first, end, x.ItemCount(k), x.ItemsWithRequests(k))
		for _, w := range words {
			fmt.Fprintln(&b, w, x.Has(w), x.ItemsHolding(k, w, nil), x.ItemsHolding(k, w, x.View(k, func(ord int) bool { return ord != 0 })))
			s := x.Search(k, nil, 0)
			ms, err := s.Best(context.Background(), terms(w, "lead"))
			if err != nil {
				t.Fatal(err)
			}
			for _, m := range ms {
				fmt.Fprintf(&b, "%+v %v %.6f %d\n", m, s.Explain(terms(w), m.Request), s.Covered(m.Request, terms(w)), x.Item(m.Request))
			}
		}
	}
	return b.String()
}

// TestWriteRefuses: kinds out of order and document numbers of another
// catalog are refused.
func TestWriteRefuses(t *testing.T) {
	its := items()
	if err := Write(t.TempDir(), its, []uint32{0}); err == nil {
		t.Error("document numbers of another catalog accepted")
	}
	split := []catalog.Item{{Kind: ext.KindTool, Server: "a", Name: "a1"}, {Kind: ext.KindTool, Server: "b", Name: "b1"}, {Kind: ext.KindTool, Server: "a", Name: "a2"}}
	if err := Write(t.TempDir(), split, []uint32{0, 1, 2}); err == nil || !strings.Contains(err.Error(), "a server of a kind") {
		t.Errorf("a server's items apart: %v", err)
	}
	mixed := []catalog.Item{its[0], its[3], its[1]}
	if err := Write(t.TempDir(), mixed, []uint32{0, 1, 2}); err == nil || !strings.Contains(err.Error(), "together") {
		t.Errorf("kinds mixed: %v", err)
	}
}

// TestSearchLooksUpOnce: a search looks each term up once in the
// caller's view, however many requests it then explains or compares:
// explaining and comparing again charges nothing more.
func TestSearchLooksUpOnce(t *testing.T) {
	x := build(t, items())
	calls := 0
	view := x.View(ext.KindTool, func(ord int) bool { calls++; return ord != 1 })
	made := calls
	s := x.Search(ext.KindTool, view, 0)
	q := terms("add a new lead")
	ms, err := s.Best(context.Background(), q)
	if err != nil || len(ms) == 0 {
		t.Fatalf("matches %v (%v)", ms, err)
	}
	compare := func() {
		for range 20 {
			for _, m := range ms {
				s.Explain(q, m.Request)
				s.Covered(m.Request, q)
			}
		}
	}
	compare()
	spent := s.spent
	compare()
	if s.spent != spent {
		t.Errorf("explaining and comparing again charged %d more lookup steps", s.spent-spent)
	}
	if calls != made {
		t.Errorf("the search asked the caller's sight %d times; want none after the view is made", calls-made)
	}
	if parts := s.Explain(q, ms[0].Request); len(parts) == 0 {
		t.Error("no parts explained")
	}
}

// TestSearchBoundsItsSight: for a caller who does not see every item,
// counting a term's postings in its view examines at most the view's
// steps of them one by one, however many postings items outside the view
// hold; and the matches are those of the same catalog without the words
// of the hidden items.
func TestSearchBoundsItsSight(t *testing.T) {
	catalogWith := func(hiddenWords string) []catalog.Item {
		var its []catalog.Item
		for i := range 1200 {
			words := "alpha beta gamma"
			if i >= 100 && i < 1100 {
				words = hiddenWords
			}
			its = append(its, catalog.Item{Kind: ext.KindTool, Name: fmt.Sprint("t", i), Requests: []string{words}})
		}
		return its
	}
	seesEnds := func(ord int) bool { return ord < 100 || ord >= 1100 }
	x, without := build(t, catalogWith("alpha beta delta epsilon")), build(t, catalogWith("zeta eta theta iota"))
	q := terms("alpha beta gamma delta")
	s := x.Search(ext.KindTool, x.View(ext.KindTool, seesEnds), 0)
	ms, err := s.Best(context.Background(), q)
	if err != nil || len(ms) != 200 {
		t.Fatalf("%d matches (%v), want the 200 items seen", len(ms), err)
	}
	if bound := 4 * s.view.steps; s.examined > bound {
		t.Errorf("counting 4 terms in the view examined %d postings one by one, want at most %d", s.examined, bound)
	}
	want, _ := without.Search(ext.KindTool, without.View(ext.KindTool, seesEnds), 0).Best(context.Background(), q)
	if fmt.Sprint(ms) != fmt.Sprint(want) {
		t.Errorf("matches differ with the hidden items' words:\n%v\n%v", ms, want)
	}
	for _, m := range ms {
		if !seesEnds(m.Ord) {
			t.Fatalf("an item the caller does not see matched: %+v", m)
		}
	}
}

// TestLookupBoundIsAlike: in a catalog whose visibility alternates item
// by item, a search that spends its lookup steps weighs every further
// term as nothing, alike, so its matches are still those of the same
// catalog without the hidden items' words, and its cost is bounded.
func TestLookupBoundIsAlike(t *testing.T) {
	catalogWith := func(hidden func(i int) string) []catalog.Item {
		var its []catalog.Item
		for i := range 4000 {
			words := fmt.Sprintf("w%d w%d w%d", i%50, (i+1)%50, (i+7)%50)
			if i%2 == 1 {
				words = hidden(i)
			}
			its = append(its, catalog.Item{Kind: ext.KindTool, Name: fmt.Sprint("t", i), Requests: []string{words}})
		}
		return its
	}
	even := func(ord int) bool { return ord%2 == 0 }
	x := build(t, catalogWith(func(i int) string { return fmt.Sprintf("w%d w%d", i%50, (i+3)%50) }))
	without := build(t, catalogWith(func(i int) string { return "other words" }))
	var q []Term
	for i := range 50 {
		q = append(q, Term{Text: fmt.Sprint("w", i), Weight: 1})
	}
	s := x.Search(ext.KindTool, x.View(ext.KindTool, even), 0)
	got, err := s.Best(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if s.spent <= maxLookupSteps {
		t.Fatalf("the search spent %d lookup steps; the test wants a view whose 50 terms pass %d", s.spent, maxLookupSteps)
	}
	want, _ := without.Search(ext.KindTool, without.View(ext.KindTool, even), 0).Best(context.Background(), q)
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("past the lookup bound the matches depend on the hidden items' words:\n%v\n%v", got[:min(3, len(got))], want[:min(3, len(want))])
	}
}
