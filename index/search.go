package index

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/search"
	"github.com/blevesearch/bleve/v2/search/query"

	"github.com/mcpsearch/mcpsearch/ext"
)

// Field weights of the text query.
var fieldBoosts = []struct {
	field string
	boost float64
}{
	{fieldName, 1.5}, {fieldTitle, 1.2}, {fieldDescription, 1.0},
	{fieldParams, 0.5}, {fieldServerWords, 0.5}, {fieldURI, 1.0},
}

// exactNameBoost lifts an item whose name is the whole query.
const exactNameBoost = 20

// Search implements ext.Catalog.
func (x *Index) Search(ctx context.Context, q ext.Query) (*ext.Page, error) {
	bq, err := searchQuery(q)
	if err != nil {
		return nil, err
	}
	if q.Limit <= 0 {
		return &ext.Page{}, nil
	}
	req := bleve.NewSearchRequestOptions(bq, q.Limit+1, q.Offset, false)
	req.SortBy([]string{"-_score", "_id"})
	return x.run(ctx, req, q.Limit)
}

// List implements ext.Catalog: the items of kind k in catalog order.
func (x *Index) List(ctx context.Context, k ext.Kind, offset, limit int) (*ext.Page, error) {
	total := x.manifest.Counts[k]
	if offset >= total || limit <= 0 {
		return &ext.Page{}, nil
	}
	end := min(offset+limit, total)
	ids := make([]string, 0, end-offset)
	for n := offset; n < end; n++ {
		ids = append(ids, docID(k, n))
	}
	req := bleve.NewSearchRequestOptions(bleve.NewDocIDQuery(ids), len(ids), 0, false)
	req.SortBy([]string{"_id"})
	page, err := x.run(ctx, req, len(ids))
	if err != nil {
		return nil, err
	}
	if len(page.Items) != len(ids) {
		return nil, fmt.Errorf("index %s: list of %s: %d of %d items found", x.dir, k, len(page.Items), len(ids))
	}
	page.More = end < total
	for i := range page.Items {
		page.Items[i].Score = 0
	}
	return page, nil
}

// run executes req and turns up to limit hits into a page; a further hit
// sets More.
func (x *Index) run(ctx context.Context, req *bleve.SearchRequest, limit int) (*ext.Page, error) {
	req.Fields = []string{fieldObject, fieldServer}
	res, err := x.bleve.SearchInContext(ctx, req)
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", x.dir, err)
	}
	page := &ext.Page{More: len(res.Hits) > limit}
	for _, h := range res.Hits[:min(limit, len(res.Hits))] {
		hit, err := toHit(h)
		if err != nil {
			return nil, fmt.Errorf("index %s: %w", x.dir, err)
		}
		page.Items = append(page.Items, hit)
	}
	return page, nil
}

func toHit(h *search.DocumentMatch) (ext.Hit, error) {
	obj, ok := h.Fields[fieldObject].(string)
	if !ok {
		return ext.Hit{}, fmt.Errorf("document %s has no stored object", h.ID)
	}
	server, _ := h.Fields[fieldServer].(string)
	return ext.Hit{Object: []byte(obj), Server: server, Score: h.Score}, nil
}

// searchQuery builds the bleve query for q: the text query, restricted by
// kind and filter. Text is analysed into words, never parsed as syntax.
func searchQuery(q ext.Query) (query.Query, error) {
	if !q.Kind.Valid() {
		return nil, fmt.Errorf("%w: unknown kind %q", ext.ErrInvalidParams, q.Kind)
	}
	clauses := []query.Query{filterTerm(fieldKind, string(q.Kind))}
	if len(q.Filter.Servers) > 0 {
		servers := make([]query.Query, len(q.Filter.Servers))
		for i, s := range q.Filter.Servers {
			servers[i] = filterTerm(fieldServer, s)
		}
		clauses = append(clauses, bleve.NewDisjunctionQuery(servers...))
	}
	annotations, err := annotationFilter(q.Filter.Annotations)
	if err != nil {
		return nil, err
	}
	clauses = append(clauses, annotations...)
	clauses = append(clauses, textQuery(q.Text))
	return bleve.NewConjunctionQuery(clauses...), nil
}

// textQuery matches the words of text in every text field, and the whole
// text against item names. Each word is one clause: a disjunction over the
// fields it may occur in. bleve multiplies a disjunction's score by the share
// of its clauses that matched, so items that match more of the query's words
// rank higher.
func textQuery(text string) query.Query {
	words := analyze(text)
	clauses := make([]query.Query, 0, len(words)+1)
	for _, w := range words {
		fields := make([]query.Query, 0, len(fieldBoosts))
		for _, fb := range fieldBoosts {
			t := bleve.NewTermQuery(w)
			t.SetField(fb.field)
			t.SetBoost(fb.boost)
			fields = append(fields, t)
		}
		clauses = append(clauses, bleve.NewDisjunctionQuery(fields...))
	}
	exact := bleve.NewTermQuery(strings.ToLower(strings.TrimSpace(text)))
	exact.SetField(fieldNameExact)
	exact.SetBoost(exactNameBoost)
	return bleve.NewDisjunctionQuery(append(clauses, exact)...)
}

// analyze returns the distinct terms of text under the text analyzer.
func analyze(text string) []string {
	var terms []string
	for _, tok := range textAnalyzer.Analyze([]byte(text)) {
		if t := string(tok.Term); !slices.Contains(terms, t) {
			terms = append(terms, t)
		}
	}
	return terms
}

// filterTerm is a term that restricts matches without adding to the score.
func filterTerm(field, term string) query.Query {
	t := bleve.NewTermQuery(term)
	t.SetField(field)
	t.SetBoost(0)
	return t
}

// annotationFilter turns {"readOnlyHint": true} into term clauses.
func annotationFilter(a map[string]any) ([]query.Query, error) {
	keys := make([]string, 0, len(a))
	for k := range a {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	clauses := make([]query.Query, 0, len(keys))
	for _, k := range keys {
		term, ok := annotationTerm(k, a[k])
		if !ok {
			return nil, fmt.Errorf("%w: filter.annotations.%s must be a boolean, string or number", ext.ErrInvalidParams, k)
		}
		clauses = append(clauses, filterTerm(fieldAnnotations, term))
	}
	return clauses, nil
}
