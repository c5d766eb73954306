package index

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/mcpsearch/mcpsearch/ext"
)

// Explanation says why a search hit ranks where it does: the BM25 score of
// its retrieval, split by field and term, then the re-ranking signals added
// to it (see rank.go). It is what Search puts in ext.Hit.Explain when the
// query asks for it, and what clients read in _meta[ext.MetaExplain].
type Explanation struct {
	// Summary is the explanation in one readable line, e.g.
	// "description: screenshot (1.8), page (0.9); name: screenshot (1.2)".
	Summary string `json:"summary"`
	// BM25 is the retrieval score; the field scores add up to it.
	BM25   float64      `json:"bm25"`
	Fields []FieldMatch `json:"fields"`
	// Rerank is nil for an item past the re-ranking window, whose score is
	// its BM25 score.
	Rerank *RerankSignals `json:"rerank,omitempty"`
	// Score is the final score, as ranked.
	Score float64 `json:"score"`
}

// FieldMatch is the part of the BM25 score one field contributed.
type FieldMatch struct {
	Field string      `json:"field"`
	Score float64     `json:"score"`
	Terms []TermMatch `json:"terms"`
}

// TermMatch is the part of a field's score one query term contributed. The
// term is in its analysed (lower-cased, stemmed) form.
type TermMatch struct {
	Term  string  `json:"term"`
	Score float64 `json:"score"`
}

// RerankSignals are the terms of a re-ranked score: the BM25 score divided
// by the best of the window, plus the name signals, plus the exact-name
// bonus.
type RerankSignals struct {
	BM25Share float64 `json:"bm25Share"`
	// NameWords and NameWordsMatched: the item's own name words (analysed),
	// and those of them the query holds (name coverage).
	NameWords        []string `json:"nameWords"`
	NameWordsMatched []string `json:"nameWordsMatched"`
	// Name is what the name coverage (with the plural-object and all-words
	// bonuses) added.
	Name float64 `json:"name"`
	// Action is "match" when the item's name names an action the query
	// asks for, "clash" when it names only other actions, "" otherwise;
	// ActionScore is what it added.
	Action      string  `json:"action,omitempty"`
	ActionScore float64 `json:"actionScore"`
	// ExactName is set when the item's name is the whole query.
	ExactName      bool    `json:"exactName"`
	ExactNameScore float64 `json:"exactNameScore"`
	// Similarity is the cosine of the query's and the item's word vectors;
	// SimilarityScore is what it added (denseWeight × Similarity).
	Similarity      float64 `json:"similarity"`
	SimilarityScore float64 `json:"similarityScore"`
	// ClauseScore is what being the nearest item to clauses of a long
	// query added (see clauses.go).
	ClauseScore float64 `json:"clauseScore,omitempty"`
}

// explainPage fills the Explain field of page's hits, which are
// cands[q.Offset:] in order. It scores the leaves of bq again on those
// documents only (fieldScores), so its cost is bounded by the page size
// and the query's terms.
func (x *Index) explainPage(ctx context.Context, q ext.Query, bq bm25Query, info queryInfo, cands []candidate, window int, page *ext.Page) error {
	pageCands := cands[q.Offset : q.Offset+len(page.Items)]
	ids := make([]string, len(pageCands))
	for i, c := range pageCands {
		ids[i] = c.id
	}
	fields, err := x.fieldScores(ctx, q.Kind, bq, ids)
	if err != nil {
		return fmt.Errorf("index %s: explaining: %w", x.dir, err)
	}
	best := bestBM25(cands[:min(len(cands), window)])
	for i, c := range pageCands {
		e := &Explanation{BM25: round3(c.bm25), Fields: fields[i], Score: round3(c.score)}
		if q.Offset+i < window {
			e.Rerank = rerankSignals(info, c, best)
		}
		e.Summary = e.summary()
		page.Items[i].Explain = e
	}
	return nil
}

// pageDoc is a document of a page: its number in the index and its place
// on the page.
type pageDoc struct {
	id  bindex.IndexInternalID
	num uint64
	at  int
}

// fieldScores splits the BM25 scores of documents ids by field and term,
// as bm25Top computes them: each leaf's score times its field clause's
// share of leaves matched and the text's share of clauses matched (so the
// terms add up to the score; TestExplainMatchesBleve proves it is bleve's
// explanation). Each leaf's postings are advanced to the documents, in
// index order.
func (x *Index) fieldScores(ctx context.Context, kind ext.Kind, q bm25Query, ids []string) ([][]FieldMatch, error) {
	r, err := x.reader()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	docs, err := pageDocs(r, ids)
	if err != nil {
		return nil, err
	}
	leaves, err := openLeaves(r, x.bm25[kind], q.text)
	defer closeLeaves(leaves)
	if err != nil {
		return nil, err
	}
	hits := make([][]leafHit, len(ids)) // by document: the leaves it matched
	for c, clause := range leaves {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		for l := range clause {
			if hits, err = matchLeaf(&clause[l], q.text[c][l], c, docs, hits); err != nil {
				return nil, err
			}
		}
	}
	out := make([][]FieldMatch, len(ids))
	for i := range out {
		out[i] = splitScore(hits[i], leaves)
	}
	return out, nil
}

// pageDocs returns the documents ids in index order.
func pageDocs(r bindex.IndexReader, ids []string) ([]pageDoc, error) {
	docs := make([]pageDoc, len(ids))
	for i, id := range ids {
		iid, err := r.InternalID(id)
		if err != nil || iid == nil {
			return nil, fmt.Errorf("no document %s (%v)", id, err)
		}
		docs[i] = pageDoc{id: iid, num: docNumber(iid), at: i}
	}
	slices.SortFunc(docs, func(a, b pageDoc) int { return cmp.Compare(a.num, b.num) })
	return docs, nil
}

// leafHit is a leaf a document matched: its clause, field, term and score.
type leafHit struct {
	clause      int
	field, term string
	score       float64
}

// matchLeaf adds to hits the documents of docs that leaf l (the leaf
// spec of clause c) matches.
func matchLeaf(l *scoredLeaf, spec bm25Leaf, c int, docs []pageDoc, hits [][]leafHit) ([][]leafHit, error) {
	var tfd bindex.TermFieldDoc
	for _, d := range docs {
		got, err := l.postings.Advance(d.id, &tfd)
		if err != nil {
			return nil, fmt.Errorf("term %q in %s: %w", spec.term, spec.field, err)
		}
		if got == nil {
			break
		}
		if docNumber(got.ID) == d.num {
			hits[d.at] = append(hits[d.at], leafHit{clause: c, field: spec.field, term: spec.term, score: l.score(got)})
		}
	}
	return hits, nil
}

// splitScore turns the leaves one document matched into its field
// matches, each leaf's score carried by its clause's and the text's share
// of matches.
func splitScore(hits []leafHit, leaves [][]scoredLeaf) []FieldMatch {
	matched := make([]int, len(leaves))
	clauses := 0
	for _, h := range hits {
		if matched[h.clause]++; matched[h.clause] == 1 {
			clauses++
		}
	}
	text := float64(clauses) / float64(len(leaves))
	byField := map[string]*FieldMatch{}
	for _, h := range hits {
		field := float64(matched[h.clause]) / float64(len(leaves[h.clause]))
		addTerm(byField, h.field, h.term, h.score*field*text)
	}
	return sortedFields(byField)
}

// bestBM25 is the best BM25 score of the re-ranking window top, which
// every re-ranked score is divided by.
func bestBM25(top []candidate) float64 {
	best := 0.0
	for _, c := range top {
		best = max(best, c.bm25)
	}
	return best
}

// rerankSignals recomputes the signals rerank added to c's score.
func rerankSignals(q queryInfo, c candidate, best float64) *RerankSignals {
	r := &RerankSignals{NameWords: c.words, NameWordsMatched: []string{}}
	if best > 0 {
		r.BM25Share = round3(c.bm25 / best)
	}
	for _, w := range c.words {
		if q.terms[w] {
			r.NameWordsMatched = append(r.NameWordsMatched, w)
		}
	}
	r.ActionScore = actionSignal(q.actions, c.words)
	switch {
	case r.ActionScore > 0:
		r.Action = "match"
	case r.ActionScore < 0:
		r.Action = "clash"
	}
	r.Name = round3(nameSignals(q, c.words) - r.ActionScore)
	r.ActionScore = round3(r.ActionScore)
	if r.ExactName = q.isExactName(c); r.ExactName {
		r.ExactNameScore = weightExactName
	}
	r.Similarity, r.SimilarityScore = round3(c.dense), round3(denseWeight*c.dense)
	r.ClauseScore = round3(c.clause)
	return r
}

func addTerm(byField map[string]*FieldMatch, field, term string, score float64) {
	if score <= 0 {
		return // a filter clause
	}
	name := fieldLabel(field)
	f := byField[name]
	if f == nil {
		f = &FieldMatch{Field: name}
		byField[name] = f
	}
	f.Score += score
	f.Terms = append(f.Terms, TermMatch{Term: term, Score: score})
}

// fieldLabel turns an index field ("t_description") into what a reader
// calls it ("description").
func fieldLabel(field string) string {
	_, f, ok := strings.Cut(field, "_")
	if !ok {
		f = field
	}
	switch f {
	case fieldNameExact:
		return "exact name"
	case fieldServerWords:
		return "server name"
	case fieldRelated:
		return "related words"
	case fieldGloss:
		return "English gloss"
	}
	return f
}

// sortedFields orders fields and their terms by score, best first, and
// rounds the scores for reading.
func sortedFields(byField map[string]*FieldMatch) []FieldMatch {
	out := make([]FieldMatch, 0, len(byField))
	for _, f := range byField {
		slices.SortStableFunc(f.Terms, func(a, b TermMatch) int { return byScore(a.Score, b.Score, a.Term, b.Term) })
		for i := range f.Terms {
			f.Terms[i].Score = round3(f.Terms[i].Score)
		}
		f.Score = round3(f.Score)
		out = append(out, *f)
	}
	slices.SortFunc(out, func(a, b FieldMatch) int { return byScore(a.Score, b.Score, a.Field, b.Field) })
	return out
}

func byScore(a, b float64, an, bn string) int {
	switch {
	case a > b:
		return -1
	case a < b:
		return 1
	}
	return strings.Compare(an, bn)
}

// summary renders e in one line: the fields with their terms, then the
// re-ranking signals that added to the score.
func (e *Explanation) summary() string {
	parts := make([]string, len(e.Fields))
	for i, f := range e.Fields {
		terms := make([]string, len(f.Terms))
		for j, t := range f.Terms {
			terms[j] = fmt.Sprintf("%s (%.3f)", t.Term, t.Score)
		}
		parts[i] = f.Field + ": " + strings.Join(terms, ", ")
	}
	s := strings.Join(parts, "; ")
	if e.Rerank != nil {
		s += "; re-ranked: " + e.Rerank.summary()
	}
	return s
}

func (r *RerankSignals) summary() string {
	matched := ""
	if len(r.NameWordsMatched) > 0 {
		matched = ": " + strings.Join(r.NameWordsMatched, ", ")
	}
	s := fmt.Sprintf("bm25 share %.3f, name coverage %d/%d%s (%+.3f)", r.BM25Share,
		len(r.NameWordsMatched), len(r.NameWords), matched, r.Name)
	if r.Action != "" {
		s += fmt.Sprintf(", action %s (%+.3f)", r.Action, r.ActionScore)
	}
	if r.ExactName {
		s += fmt.Sprintf(", exact name (%+.3f)", r.ExactNameScore)
	}
	if r.SimilarityScore != 0 {
		s += fmt.Sprintf(", word-vector similarity %.3f (%+.3f)", r.Similarity, r.SimilarityScore)
	}
	return s
}

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }
