package retrievaltest_test

import (
	"context"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"testing"

	"github.com/RoaringBitmap/roaring/v2"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index"
	"github.com/mcpsearch/mcpsearch/index/internal/requests"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval/retrievaltest"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
	"github.com/mcpsearch/mcpsearch/index/internal/segmentfile"
)

// files is a catalog of every kind, with written requests, a server only
// the group ops sees and one only the group dev sees.
var files = map[string]string{
	"weather.json": `{"server":"weather","tools":[
		{"name":"forecast","description":"Weather forecast for a city","inputSchema":{"type":"object","properties":{"city":{"type":"string","description":"The city"}}},"annotations":{"readOnlyHint":true},
		 "_meta":{"io.github.mcpsearch/requests":["will it rain tomorrow","do I need an umbrella"]}},
		{"name":"storm_alerts","description":"Storm alerts for a region","inputSchema":{"type":"object"}}],
		"prompts":[{"name":"weather_report","description":"Write a weather report for the reader"}]}`,
	"ops.json": `{"server":"ops","visibility":{"groups":["ops"]},"tools":[
		{"name":"launch_cluster","description":"Launch the cluster in a region","inputSchema":{"type":"object"},"annotations":{"team":"red"},
		 "_meta":{"io.github.mcpsearch/requests":["spin up the servers"]}},
		{"name":"drain_node","description":"Drain a node of the cluster before maintenance","inputSchema":{"type":"object"}}]}`,
	"dev.json": `{"server":"dev","visibility":{"groups":["dev"]},"tools":[
		{"name":"run_tests","description":"Run the test suite of a repository","inputSchema":{"type":"object"}}],
		"resources":[{"name":"Build log","uri":"file:///logs/build.txt","description":"The last build's log of the cluster"}]}`,
}

var accesses = []ext.Access{{All: true}, {}, {Groups: []string{"ops"}}, {Groups: []string{"dev", "ops"}}}

// TestSameAsIndex: the source of a catalog built by this package answers
// every call a search makes exactly as index.Open's source of the same
// catalog, for each kind of caller, and so does the pipeline run over it.
func TestSameAsIndex(t *testing.T) {
	t.Parallel()
	mem := retrievaltest.Files(t, files)
	x := openIndex(t, files)
	for _, a := range accesses {
		got, want := mem.Source(a), x.RetrievalSource(a)
		compareBundle(t, a, got, want)
		compareSight(t, a, got, want)
		compareSegment(t, a, got, want)
		compareSearches(t, a, mem, x)
	}
}

// openIndex writes files into a catalog directory, builds it with
// index.BuildDir and opens it with index.Open.
func openIndex(t *testing.T, files map[string]string) *index.Index {
	t.Helper()
	cat := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(cat, name), []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	dir := filepath.Join(t.TempDir(), "bundle")
	if _, err := index.BuildDir(cat, dir, nil); err != nil {
		t.Fatal(err)
	}
	x, err := index.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { x.Close() })
	return x
}

// docIDs are the ids of every document of the bundle.
func docIDs(src retrieval.Source) []string {
	var ids []string
	for _, k := range ext.Kinds {
		for n := range src.Requests().ItemCount(k) {
			ids = append(ids, schema.DocID(k, n))
		}
	}
	return ids
}

func compareBundle(t *testing.T, a ext.Access, got, want retrieval.Source) {
	t.Helper()
	for _, k := range ext.Kinds {
		if g, w := got.Stats(k), want.Stats(k); !reflect.DeepEqual(g, w) {
			t.Errorf("%+v: Stats(%s) = %+v, want %+v", a, k, g, w)
		}
	}
	if !slices.Equal(got.DocOrder(), want.DocOrder()) {
		t.Errorf("%+v: DocOrder differs", a)
	}
	if got.Separator() != want.Separator() {
		t.Errorf("%+v: Separator %q, want %q", a, got.Separator(), want.Separator())
	}
	ids := docIDs(want)
	if len(ids) != 7 {
		t.Fatalf("%d documents, want the catalog's 7", len(ids))
	}
	gm, err := got.Metas(ids)
	if err != nil {
		t.Fatal(err)
	}
	wm, err := want.Metas(ids)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(gm, wm) {
		t.Errorf("%+v: Metas\n got %+v\nwant %+v", a, gm, wm)
	}
	for pos := range ids {
		if g, w := got.Requests().Of(pos), want.Requests().Of(pos); !slices.Equal(g, w) {
			t.Errorf("%+v: requests of %d: %q, want %q", a, pos, g, w)
		}
	}
	for _, k := range ext.Kinds {
		if g, w := got.Requests().Count(k), want.Requests().Count(k); g != w {
			t.Errorf("%+v: %d requests of %s, want %d", a, g, k, w)
		}
		q := got.Vectors().Query("rain in the city")
		g, err := got.Vectors().Nearest(k, q, 10, nil)
		if err != nil {
			t.Fatal(err)
		}
		w, err := want.Vectors().Nearest(k, want.Vectors().Query("rain in the city"), 10, nil)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%+v: nearest %s: %+v, want %+v", a, k, g, w)
		}
	}
	if q, note := got.HostedQuery(context.Background(), "rain"); q != nil || note != "" {
		t.Errorf("HostedQuery = %v, %q; want none, as a bundle without hosted vectors", q, note)
	}
}

func compareSight(t *testing.T, a ext.Access, got, want retrieval.Source) {
	t.Helper()
	if got.SeesAll() != want.SeesAll() {
		t.Errorf("%+v: SeesAll %v, want %v", a, got.SeesAll(), want.SeesAll())
	}
	for _, k := range ext.Kinds {
		if got.Count(k) != want.Count(k) {
			t.Errorf("%+v: Count(%s) %d, want %d", a, k, got.Count(k), want.Count(k))
		}
		for ord := range want.Requests().ItemCount(k) {
			if got.Sees(k, ord) != want.Sees(k, ord) {
				t.Errorf("%+v: Sees(%s, %d) %v", a, k, ord, got.Sees(k, ord))
			}
		}
		g, w := got.RequestView(k), want.RequestView(k)
		if (g == nil) != (w == nil) || g != nil && (g.Items() != w.Items() || g.Asked() != w.Asked() || g.Requests() != w.Requests()) {
			t.Errorf("%+v: RequestView(%s) %+v, want %+v", a, k, g, w)
		}
	}
	for name, f := range map[string]func(retrieval.Source) ([]*roaring.Bitmap, error){
		"Visible": retrieval.Source.Visible, "Outside": retrieval.Source.Outside,
	} {
		g, err := f(got)
		if err != nil {
			t.Fatal(err)
		}
		w, err := f(want)
		if err != nil {
			t.Fatal(err)
		}
		if len(g) != len(w) {
			t.Fatalf("%+v: %s: %d segments, want %d", a, name, len(g), len(w))
		}
		for i := range g {
			if !g[i].Equals(w[i]) {
				t.Errorf("%+v: %s: segment %d holds %v, want %v", a, name, i, g[i].ToArray(), w[i].ToArray())
			}
		}
	}
}

// compareSegment compares the documents' ids and every term of every
// field, with its document count.
func compareSegment(t *testing.T, a ext.Access, got, want retrieval.Source) {
	t.Helper()
	gr := got.Reader()
	defer gr.Close()
	wr := want.Reader()
	defer wr.Close()
	gn, _ := gr.DocCount()
	wn, _ := wr.DocCount()
	if gn != wn {
		t.Fatalf("%+v: %d documents, want %d", a, gn, wn)
	}
	for _, id := range docIDs(want) {
		g, _ := gr.InternalID(id)
		w, _ := wr.InternalID(id)
		if !slices.Equal(g, w) {
			t.Errorf("%+v: %s numbered %x, want %x", a, id, g, w)
		}
	}
	fields := wr.Segment().Fields()
	if !slices.Equal(gr.Segment().Fields(), fields) {
		t.Fatalf("%+v: fields %v, want %v", a, gr.Segment().Fields(), fields)
	}
	for _, f := range fields {
		if g, w := terms(t, gr, f), terms(t, wr, f); !reflect.DeepEqual(g, w) {
			t.Errorf("%+v: field %s: terms %v, want %v", a, f, g, w)
		}
	}
}

// terms are the terms of field, with the number of documents holding each.
func terms(t *testing.T, r *segmentfile.Reader, field string) map[string]uint64 {
	t.Helper()
	d, err := r.FieldDict(field)
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	out := map[string]uint64{}
	for {
		e, err := d.Next()
		if err != nil {
			t.Fatal(err)
		}
		if e == nil {
			return out
		}
		out[e.Term] = e.Count
	}
}

// compareSearches runs queries of each kind, with and without filters,
// through the pipeline over both sources (retrieval.Rank), and this
// package's Page against index.Search's.
func compareSearches(t *testing.T, a ext.Access, mem *retrievaltest.Bundle, x *index.Index) {
	t.Helper()
	queries := []ext.Query{
		{Kind: ext.KindTool, Text: "weather forecast", Limit: 10},
		{Kind: ext.KindTool, Text: "will it rain", Limit: 10},
		{Kind: ext.KindTool, Text: "launch the clustr", Limit: 10, Explain: true},
		{Kind: ext.KindTool, Text: "cluster", Limit: 10, Filter: ext.Filter{Servers: []string{"ops", "wether"}}},
		{Kind: ext.KindTool, Text: "region", Limit: 10, Filter: ext.Filter{Annotations: map[string]any{"readOnlyHint": true}}},
		{Kind: ext.KindTool, Text: "region", Limit: 10, Filter: ext.Filter{Annotations: map[string]any{"team": "red"}}},
		{Kind: ext.KindPrompt, Text: "write a report", Limit: 10, Explain: true},
		{Kind: ext.KindResource, Text: "build log", Limit: 10},
		{Kind: ext.KindTool, Text: "order a pizza", Limit: 10},
		{Kind: ext.KindTool, Text: "cluster node region", Limit: 1, Offset: 1, Explain: true},
		{Kind: ext.KindTool, Text: "Weather   FORECAST!", Limit: 10, Offset: 5},
	}
	for _, q := range queries {
		compareRank(t, a, q, mem.Source(a), x.RetrievalSource(a))
		got, gerr := mem.Page(context.Background(), q, a)
		want, werr := x.Search(ext.WithAccess(context.Background(), a), q)
		if (gerr == nil) != (werr == nil) || gerr != nil && gerr.Error() != werr.Error() {
			t.Errorf("%+v %q: error %v, want %v", a, q.Text, gerr, werr)
			continue
		}
		if gerr != nil {
			continue
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("%+v %q:\n got %+v\nwant %+v", a, q.Text, got, want)
		}
	}
}

// compareRank ranks q over both sources.
func compareRank(t *testing.T, a ext.Access, q ext.Query, got, want retrieval.Source) {
	t.Helper()
	q.Text = retrieval.ReadText(q.Text)
	gr, err := retrieval.Read(got, q, 0)
	if err != nil {
		t.Fatal(err)
	}
	wr, err := retrieval.Read(want, q, 0)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(gr, wr) {
		t.Fatalf("%+v %q: read\n got %+v\nwant %+v", a, q.Text, gr, wr)
	}
	filters, err := retrieval.FilterClauses(q, want.SeesAll(), a)
	if err != nil {
		t.Fatal(err)
	}
	g, err := retrieval.Rank(context.Background(), got, gr, filters)
	if err != nil {
		t.Fatal(err)
	}
	w, err := retrieval.Rank(context.Background(), want, wr, filters)
	if err != nil {
		t.Fatal(err)
	}
	for _, part := range []struct {
		name      string
		got, want any
	}{
		{"candidates", g.Candidates, w.Candidates}, {"hint", g.Hint, w.Hint}, {"empty", g.Empty, w.Empty},
		{"requests", matches(g), matches(w)},
		{"decision", g.Decision.Explanation(), w.Decision.Explanation()}, {"vectors", g.Vectors, w.Vectors},
	} {
		if !reflect.DeepEqual(part.got, part.want) {
			t.Errorf("%+v %q: %s\n got %+v\nwant %+v", a, q.Text, part.name, part.got, part.want)
		}
	}
}

// matches are the best written request matched of each candidate of
// res.
func matches(res *retrieval.Result) []requests.Match {
	var out []requests.Match
	for _, c := range res.Candidates {
		if m, ok := res.Requests.Of(c.ID); ok {
			out = append(out, m)
		}
	}
	return out
}
