package index

import (
	"context"
	"encoding/binary"
	"fmt"
	"strings"

	bindex "github.com/blevesearch/bleve_index_api"
	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/bm25"
	"github.com/mcpsearch/mcpsearch/index/internal/rank"
	"github.com/mcpsearch/mcpsearch/index/internal/rules"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// Search implements ext.Searcher. It retrieves candidates with BM25, re-ranks
// the first rank.RerankWindow of them (package rank) and loads the MCP
// objects of the requested page only. Items the caller (ext.AccessFrom(ctx)) may not
// see are excluded by the query itself, before ranking and the cut.
func (x *Index) Search(ctx context.Context, q ext.Query) (_ *ext.Page, err error) {
	defer recoverDamage(x.dir, &err)
	q.Text = readQuery(q.Text)
	own := q.Text
	access := ext.AccessFrom(ctx)
	w := x.visibility.viewer(access)
	off := x.rulesOff()
	qterms, searched, err := x.searchedTerms(q.Kind, own, w, off)
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", x.dir, err)
	}
	terms := termStrings(qterms)
	if err := x.checkAnnotations(q, w); err != nil {
		return nil, err
	}
	bq, err := searchQuery(q, terms, x.manifest.Separator, w.all(), access, off)
	if err != nil {
		return nil, err
	}
	scope, done, err := x.scope(q.Kind, w)
	defer done()
	if err != nil {
		return nil, err
	}
	bq.Scope = scope
	bq.MaxPostings = x.maxPostings(q.Kind)
	if len(terms) == 0 {
		return &ext.Page{Hint: "the query has no searchable words"}, nil
	}
	unknown, err := x.unknownServers(q, w)
	if err != nil {
		return nil, err
	}
	if len(unknown) > 0 && len(unknown) == len(q.Filter.Servers) {
		return &ext.Page{Hint: filterHint(q, unknown, "")}, nil
	}
	if q.Limit <= 0 {
		return &ext.Page{}, nil
	}
	cands, err := x.ranked(ctx, q, w, bq, terms, searched, off)
	if err != nil {
		return nil, err
	}
	fit, err := x.judgeFit(q.Kind, w, qterms, text.FilesAsWord(own), searched, cands, off)
	if err != nil || fit.empty {
		return &ext.Page{Hint: filterHint(q, unknown, fit.hint)}, err
	}
	return x.pageOf(ctx, q, bq, cands, fit.hint)
}

// ranked returns the candidates of bq, the query of q's terms (read from
// searched) that w may see: BM25's best, the best items of the servers a
// command names and the nearest by vectors, the first
// rank.RerankWindow of them re-ranked.
func (x *Index) ranked(ctx context.Context, q ext.Query, w viewer, bq bm25.Query, terms []string, searched string, off rules.Set) ([]rank.Candidate, error) {
	named, err := x.commandNames(q, w, terms, off)
	if err != nil {
		return nil, err
	}
	cands, byServer, err := x.candidates(ctx, q.Kind, bq, max(rank.RerankWindow, q.Offset+q.Limit+1), named)
	if err != nil {
		return nil, err
	}
	cands, window, err := x.addNamedServers(cands, byServer, min(len(cands), rank.RerankWindow))
	if err != nil {
		return nil, err
	}
	cands, window, err = x.addDense(ctx, q, searched, cands, window, off)
	if err != nil {
		return nil, err
	}
	rank.Rerank(rank.NewQuery(q.Text, terms, off), cands, window)
	return cands, nil
}

// pageOf loads the page of ranked cands that q asks for (its offset and
// limit), with the near-miss hint on the first page (see judgeFit) and
// the explanations q asks for.
func (x *Index) pageOf(ctx context.Context, q ext.Query, bq bm25.Query, cands []rank.Candidate, hint string) (*ext.Page, error) {
	if q.Offset >= len(cands) {
		return &ext.Page{}, nil
	}
	page, err := x.load(ctx, cands[q.Offset:min(len(cands), q.Offset+q.Limit)])
	if err != nil {
		return nil, err
	}
	page.More = len(cands) > q.Offset+q.Limit
	if q.Offset == 0 {
		page.Hint = hint
	}
	if q.Explain {
		if err := x.explainPage(ctx, q, bq, cands, page); err != nil {
			return nil, err
		}
	}
	return page, nil
}

// readQuery returns what a search reads of the caller's text: its
// compatibility form (text.Normalize), to its ext.MaxQueryTerms-th word,
// each part of an identifier and each Chinese or Japanese character
// counting as one (text.FirstWords). Every later step — glosses, phrases,
// analysis, correction, vectors, re-ranking — reads no more, so what a
// query costs is bounded by its words whatever their shape.
func readQuery(s string) string {
	return text.FirstWords(text.Normalize(s, ext.MaxQueryBytes), ext.MaxQueryTerms)
}

// searchedText is what BM25 and the vectors read of the caller's text
// own: its file paths as words, its Chinese and other languages glossed in
// English, its phrases and everyday words followed by the words tools use
// (each pass unless off switches it off).
func searchedText(own string, off rules.Set) string {
	s := own
	for _, p := range queryPasses {
		if off.On(p.rule) {
			s = p.pass(s)
		}
	}
	return s
}

// queryPasses are the rewrites of the caller's text, in order.
var queryPasses = []struct {
	rule rules.Rule
	pass func(string) string
}{
	{rules.FileWords, text.WithFileWords},
	{rules.ForeignGlosses, text.WithForeignGlosses},
	{rules.ChineseGlosses, text.WithGlosses},
	{rules.Phrases, text.WithPhraseExpansions},
	{rules.QueryExpansions, text.WithQueryExpansions},
}

// searchedTerms returns the terms a query searches and the text they are
// read from (searchedText): the words of own, the caller's text, resolved
// and corrected among the items w sees, with the everyday words of
// corrected ones (at most rank.MaxSearchTerms).
func (x *Index) searchedTerms(kind ext.Kind, own string, w viewer, off rules.Set) ([]queryTerm, string, error) {
	searched := searchedText(own, off)
	terms, words := queryTerms(searched)
	qterms, err := x.resolveTerms(kind, terms, words, w)
	return qterms, searched, err
}

// maxPostings bounds the postings a search of kind walks
// (bm25.Query.MaxPostings): rank.PostingsPerItem per item of the kind, at
// least rank.MinPostings.
func (x *Index) maxPostings(kind ext.Kind) int {
	return max(rank.PostingsPerItem*int(x.bm25[kind].DocCount), rank.MinPostings)
}

func termStrings(terms []queryTerm) []string {
	out := make([]string, len(terms))
	for i, t := range terms {
		out[i] = t.term
	}
	return out
}

// candidates runs the BM25 query for the best n items (package bm25) and
// reads the meta records of the re-ranking window; in the same pass, the
// best rank.NamedServerCandidates items of each of servers (see
// addNamedServers).
func (x *Index) candidates(ctx context.Context, kind ext.Kind, bq bm25.Query, n int, servers []string) ([]rank.Candidate, [][]rank.Candidate, error) {
	cands, byServer, err := x.bm25TopGrouped(ctx, kind, bq, n, servers, rank.NamedServerCandidates)
	if err != nil {
		return nil, nil, fmt.Errorf("index %s: %w", x.dir, err)
	}
	if err := x.nameCandidates(cands[:min(len(cands), rank.RerankWindow)]); err != nil { // only re-ranking reads names
		return nil, nil, err
	}
	return cands, byServer, nil
}

// nameCandidates reads the label, server and name words of cands.
func (x *Index) nameCandidates(cands []rank.Candidate) error {
	ids := make([]string, len(cands))
	for i, c := range cands {
		ids[i] = c.ID
	}
	metas, err := x.metasOf(ids)
	if err != nil {
		return err
	}
	for i, m := range metas {
		cands[i].Label, cands[i].Server, cands[i].Words = m.Label, m.Server, strings.Fields(m.Words)
	}
	return nil
}

// bm25Top returns the n best items of kind for q by BM25, best first,
// ties in catalog order.
func (x *Index) bm25Top(ctx context.Context, kind ext.Kind, q bm25.Query, n int) ([]rank.Candidate, error) {
	top, _, err := x.bm25TopGrouped(ctx, kind, q, n, nil, 0)
	return top, err
}

// bm25TopGrouped is bm25Top, and the k best items of each of servers
// that q finds, from the same pass (bm25.TopGrouped).
func (x *Index) bm25TopGrouped(ctx context.Context, kind ext.Kind, q bm25.Query, n int, servers []string, k int) ([]rank.Candidate, [][]rank.Candidate, error) {
	r, docs, err := x.readerOfDocs()
	if err != nil {
		return nil, nil, err
	}
	defer r.Close()
	groups := make([]bm25.Leaf, len(servers))
	for i, s := range servers {
		groups[i] = filterTerm(fieldServer, s)
	}
	top, byGroup, err := bm25.TopGrouped(ctx, r, docs, x.bm25[kind], q, n, x.docOrder, groups, k)
	if err != nil {
		return nil, nil, err
	}
	cands, err := candidatesOf(r, top)
	if err != nil {
		return nil, nil, err
	}
	byServer := make([][]rank.Candidate, len(byGroup))
	for i, g := range byGroup {
		if byServer[i], err = candidatesOf(r, g); err != nil {
			return nil, nil, err
		}
	}
	return cands, byServer, nil
}

// candidatesOf names the documents of top.
func candidatesOf(r bindex.IndexReader, top []bm25.Doc) ([]rank.Candidate, error) {
	cands := make([]rank.Candidate, len(top))
	id := make(bindex.IndexInternalID, 8)
	for i, d := range top {
		binary.BigEndian.PutUint64(id, uint64(d.Num))
		ext, err := r.ExternalID(id)
		if err != nil {
			return nil, fmt.Errorf("document %d: %w", d.Num, err)
		}
		cands[i] = rank.Candidate{ID: ext, BM25: d.Score, Score: d.Score}
	}
	return cands, nil
}

// readerOfDocs opens a reader of the index's postings, as reader does, and
// returns the number of documents it holds.
func (x *Index) readerOfDocs() (bindex.IndexReader, int, error) {
	r, err := x.reader()
	if err != nil {
		return nil, 0, err
	}
	docs, err := r.DocCount()
	if err != nil {
		r.Close()
		return nil, 0, err
	}
	return r, int(docs), nil
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
