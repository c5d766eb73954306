package index

import (
	"context"
	"fmt"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/rank"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval"
	"github.com/mcpsearch/mcpsearch/index/internal/sight"
	"github.com/mcpsearch/mcpsearch/index/internal/store"
)

// Search implements ext.Searcher in three steps: read the query as the
// caller (ext.AccessFrom(ctx)) sees the index (retrieval.Read: its words
// looked up among what the caller sees), retrieve (retrieval.Retrieve: the
// filter checked and kept inside retrieval, the items ranked, the no-match
// test), and load the objects of the requested page only. Items the caller
// may not see are excluded by the query itself, before ranking and the
// cut.
func (x *Index) Search(ctx context.Context, q ext.Query) (_ *ext.Page, err error) {
	defer recoverDamage(x.dir, &err)
	src, q, req, err := x.read(q, ext.AccessFrom(ctx))
	if err != nil {
		return nil, err
	}
	res, err := retrieval.Retrieve(ctx, src, req, src.filtering())
	if err != nil {
		return nil, err
	}
	if res.Empty {
		return &ext.Page{Hint: res.Hint, Explain: res.Decision.Explanation()}, nil
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
	src := x.sourceOf(access)
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

// source is the index as one caller sees it, what the retrieval pipeline
// reads (retrieval.Source): the bundle's tables as they are
// (retrieval.Tables), the caller's sight (sight.View: what it sees, its
// statistics), and what this package makes for it (meta records, a hosted
// query's vector).
type source struct {
	x *Index
	retrieval.Tables
	sight.View
	access ext.Access
}

var _ retrieval.Source = source{}

// sourceOf is the index as a caller with access a sees it.
func (x *Index) sourceOf(a ext.Access) source {
	return source{x, x.tables, x.sight.View(x.visibility.Viewer(a)), a}
}

// filtering is what the caller's filters are checked and applied with.
func (s source) filtering() retrieval.Filtering {
	return retrieval.Filtering{Names: s.x.filterNames, Viewer: s.Viewer(), Access: s.access}
}

func (s source) Metas(ids []string) ([]store.Meta, error) { return s.x.metasOf(ids) }
func (s source) HostedQuery(ctx context.Context, text string) (retrieval.DenseQuery, string) {
	return s.x.hostedQuery(ctx, text)
}

// RetrievalSource is the index as a caller with access a sees it, as the
// retrieval pipeline reads it: for the pipeline's own tests and tools,
// which open bundles through this package.
func (x *Index) RetrievalSource(a ext.Access) retrieval.Source { return x.sourceOf(a) }
