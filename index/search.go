package index

import (
	"context"
	"fmt"

	"github.com/RoaringBitmap/roaring/v2"
	"github.com/blevesearch/bleve/v2/search"
	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/rank"
	"github.com/mcpsearch/mcpsearch/index/internal/requests"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval"
	"github.com/mcpsearch/mcpsearch/index/internal/store"
	"github.com/mcpsearch/mcpsearch/index/internal/vectors"
)

// Search implements ext.Searcher: the retrieval pipeline (package
// retrieval) reads the query and ranks the items the caller
// (ext.AccessFrom(ctx)) may see that the filter keeps; the objects of the
// requested page only are loaded. Items the caller may not see are
// excluded by the query itself, before ranking and the cut.
func (x *Index) Search(ctx context.Context, q ext.Query) (_ *ext.Page, err error) {
	defer recoverDamage(x.dir, &err)
	access := ext.AccessFrom(ctx)
	src, q, req, err := x.read(q, access)
	if err != nil {
		return nil, err
	}
	w := src.w
	if err := x.checkAnnotations(q, w); err != nil {
		return nil, err
	}
	unknown, err := x.unknownServers(q, w)
	if err != nil {
		return nil, err
	}
	filters, err := filterClauses(withKnownServers(q, unknown), w.all(), access)
	if err != nil {
		return nil, err
	}
	if len(req.Terms) == 0 {
		return &ext.Page{Hint: "the query has no searchable words"}, nil
	}
	if len(unknown) > 0 && len(unknown) == len(q.Filter.Servers) {
		return &ext.Page{Hint: filterHint(q, unknown, "")}, nil
	}
	if q.Limit <= 0 {
		return &ext.Page{}, nil
	}
	res, err := retrieval.Rank(ctx, src, req, filters)
	if err != nil {
		return nil, err
	}
	if res.Empty {
		return &ext.Page{Hint: filterHint(q, unknown, res.Hint), Explain: res.Decision.Explanation()}, nil
	}
	page, err := x.pageOf(ctx, q, src, res)
	if err == nil {
		page.Explain = res.Decision.Explanation()
	}
	return page, err
}

// read reads q's text as the caller with access sees the index: the
// source of what it sees, q with its text bounded (retrieval.ReadText),
// and the request read from it, which remembers the text as written.
func (x *Index) read(q ext.Query, access ext.Access) (source, ext.Query, *retrieval.Request, error) {
	written := q.Text
	q.Text = retrieval.ReadText(q.Text)
	src := source{x, x.visibility.viewer(access)}
	req, err := retrieval.Read(src, q, x.rulesOff())
	if err != nil {
		return src, q, nil, fmt.Errorf("index %s: %w", x.dir, err)
	}
	req.Written = written
	return src, q, req, nil
}

// pageOf loads the page of the ranked candidates of res that q asks for
// (its offset and limit), with the no-match test's hint on the first page
// and the explanations q asks for.
func (x *Index) pageOf(ctx context.Context, q ext.Query, src source, res *retrieval.Result) (*ext.Page, error) {
	cands := res.Candidates
	if q.Offset >= len(cands) {
		return &ext.Page{}, nil
	}
	page, err := x.load(ctx, cands[q.Offset:min(len(cands), q.Offset+q.Limit)])
	if err != nil {
		return nil, err
	}
	page.More = len(cands) > q.Offset+q.Limit
	if q.Offset == 0 {
		page.Hint = res.Hint
	}
	if q.Explain {
		explained, err := retrieval.Explain(ctx, src, q.Kind, res, cands[q.Offset:q.Offset+len(page.Items)])
		if err != nil {
			return nil, err
		}
		for i, e := range explained {
			page.Items[i].Explain = e
		}
	}
	return page, nil
}

// load fetches the objects of cands, in their order, with their scores.
func (x *Index) load(ctx context.Context, cands []rank.Candidate) (*ext.Page, error) {
	ids := make([]string, len(cands))
	for i, c := range cands {
		ids[i] = c.ID
	}
	hits, err := x.fetch(ctx, ids)
	if err != nil {
		return nil, err
	}
	for i := range hits {
		hits[i].Score = cands[i].Score
	}
	return &ext.Page{Items: hits}, nil
}

// source is the index as one caller (w) sees it, what the retrieval
// pipeline reads (retrieval.Source).
type source struct {
	x *Index
	w viewer
}

var _ retrieval.Source = source{}

func (s source) Name() string                        { return "index " + s.x.dir }
func (s source) Reader() (bindex.IndexReader, error) { return s.x.reader() }
func (s source) Stats(k ext.Kind) *search.BM25Stats  { return s.x.statsOf(s.w, k) }
func (s source) DocOrder() store.DocOrder            { return s.x.docOrder }
func (s source) Metas(ids []string) ([]store.Meta, error) {
	return s.x.metasOf(ids)
}
func (s source) Vectors() *vectors.Vectors { return s.x.vectors }
func (s source) Requests() *requests.Index { return s.x.requests }
func (s source) HostedQuery(ctx context.Context, text string) (retrieval.DenseQuery, string) {
	return s.x.hostedQuery(ctx, text)
}
func (s source) Separator() string                   { return s.x.manifest.Separator }
func (s source) SeesAll() bool                       { return s.w.all() }
func (s source) Sees(k ext.Kind, ord int) bool       { return s.w.sees(k, ord) }
func (s source) Count(k ext.Kind) int                { return s.w.count(k, s.x.manifest.Counts[k]) }
func (s source) Visible() ([]*roaring.Bitmap, error) { return s.x.visibleDocs(s.w) }
func (s source) Outside() ([]*roaring.Bitmap, error) { return s.x.outsideDocs(s.w) }
func (s source) RequestView(k ext.Kind) *requests.View {
	return s.x.requestView(s.w, k)
}

// RetrievalSource is the index as a caller with access a sees it, as the
// retrieval pipeline reads it: for the pipeline's own tests and tools,
// which open bundles through this package.
func (x *Index) RetrievalSource(a ext.Access) retrieval.Source {
	return source{x, x.visibility.viewer(a)}
}

// withKnownServers is q with its filter's servers less those unknown to
// the caller (each once): a server that holds nothing the caller sees
// lets nothing through, so the filter needs no clause of its own for it,
// and a filter of 1,000 names, most unknown, reads the postings of the
// known ones only.
func withKnownServers(q ext.Query, unknown []unknownServer) ext.Query {
	if len(unknown) == 0 && !hasRepeats(q.Filter.Servers) {
		return q
	}
	skip := map[string]bool{}
	for _, u := range unknown {
		skip[u.name] = true
	}
	known := make([]string, 0, len(q.Filter.Servers)-len(unknown))
	for _, s := range q.Filter.Servers {
		if !skip[s] {
			known = append(known, s)
			skip[s] = true
		}
	}
	q.Filter.Servers = known
	return q
}

// hasRepeats reports whether names holds a name twice.
func hasRepeats(names []string) bool {
	seen := make(map[string]bool, len(names))
	for _, n := range names {
		if seen[n] {
			return true
		}
		seen[n] = true
	}
	return false
}
