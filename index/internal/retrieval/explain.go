package retrieval

import (
	"context"
	"fmt"
	"math"
	"slices"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/bm25"
	"github.com/mcpsearch/mcpsearch/index/internal/rank"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
)

// Explanation says why a search hit ranks where it does: the BM25 score of
// its retrieval, split by field and term, then the re-ranking signals added
// to it (package rank). It is what Search puts in ext.Hit.Explain when the
// query asks for it, and what clients read in _meta[ext.MetaExplain].
type Explanation struct {
	// Summary is the explanation in one readable line, e.g.
	// "description: screenshot (1.8), page (0.9); name: screenshot (1.2)".
	Summary string `json:"summary"`
	// BM25 is the retrieval score; the field scores add up to it.
	BM25   float64      `json:"bm25"`
	Fields []FieldMatch `json:"fields"`
	// Request is the item's best-matching written request, when one
	// matched (written-requests): its part of the BM25 score is the
	// field "written request".
	Request *RequestMatch `json:"request,omitempty"`
	// Rerank is nil for an item past the re-ranking window, whose score is
	// its BM25 score.
	Rerank *RerankSignals `json:"rerank,omitempty"`
	// Score is the final score, as ranked.
	Score float64 `json:"score"`
	// Vectors says which vectors the similarity compared when the bundle
	// has a hosted model's (Result.Vectors): "hosted …", or "word vectors"
	// and why the hosted model's were not used. Absent otherwise.
	Vectors string `json:"vectors,omitempty"`
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
	// Origin says where a term the caller did not type comes from (a
	// phrase, a word of another language, a correction …; Request.Words).
	Origin string `json:"origin,omitempty"`
}

// RerankSignals are the terms of a re-ranked score (rank.Signals): the
// BM25 score divided by the best of the window, plus the name, action,
// exact-name, similarity, clause and server-named signals.
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
	// Similarity is the cosine of the query's and the item's word vectors
	// (a hosted model's, when Explanation.Vectors says so);
	// SimilarityScore is what it added (rank.DenseWeight × Similarity).
	Similarity      float64 `json:"similarity"`
	SimilarityScore float64 `json:"similarityScore"`
	// ClauseScore is what being the nearest item to clauses of a long
	// query added (see dense.go).
	ClauseScore float64 `json:"clauseScore,omitempty"`
	// ServerScore is what naming the item's server added (server-named).
	ServerScore float64 `json:"serverScore,omitempty"`
	// JoinedNamed is set when the item joined the window because the
	// query names its server (named-server-items), not by its score.
	JoinedNamed bool `json:"joinedNamed,omitempty"`
}

// Explain explains the ranking of cands, candidates of res: their BM25
// scores split by field and term (FieldScores), and the signals
// re-ranking added, as it computed them.
func Explain(ctx context.Context, src Source, kind ext.Kind, res *Result, cands []rank.Candidate) ([]*Explanation, error) {
	ids := make([]string, len(cands))
	for i, c := range cands {
		ids[i] = c.ID
	}
	fields, err := FieldScores(ctx, src, kind, res.Query, ids)
	if err != nil {
		return nil, fmt.Errorf("%s: explaining: %w", src.Name(), err)
	}
	if res.Request != nil {
		for _, fs := range fields {
			res.Request.markOrigins(fs)
		}
	}
	out := make([]*Explanation, len(cands))
	for i, c := range cands {
		e := &Explanation{BM25: round3(c.BM25), Fields: fields[i], Score: round3(c.Score), Vectors: res.Vectors}
		if m, ok := res.matchOf(src, c.ID); ok {
			e.addRequest(m)
		}
		if c.Signals != nil {
			e.Rerank = rerankSignals(c.Signals)
			e.Rerank.JoinedNamed = c.Named
		}
		e.Summary = e.summary()
		out[i] = e
	}
	return out, nil
}

// FieldScores splits the BM25 scores for q of documents ids by field and
// term (bm25.Contributions: TestExplainMatchesBleve proves it is bleve's
// explanation), so its cost is bounded by the page size and the query's
// terms.
func FieldScores(ctx context.Context, src Bundle, kind ext.Kind, q bm25.Query, ids []string) ([][]FieldMatch, error) {
	r := src.Reader()
	defer r.Close()
	contributions, err := bm25.Contributions(ctx, r, src.Stats(kind), q, ids)
	if err != nil {
		return nil, err
	}
	out := make([][]FieldMatch, len(ids))
	for i, doc := range contributions {
		out[i] = ByField(doc)
	}
	return out, nil
}

// ByField sums the contributions to one document's score by field and
// term, the fields and terms of each by score, highest first.
func ByField(doc []bm25.Contribution) []FieldMatch {
	byField := map[string]*FieldMatch{}
	for _, c := range doc {
		addTerm(byField, c.Field, c.Term, c.Score)
	}
	return sortedFields(byField)
}

// rerankSignals are the signals re-ranking added to a score, rounded for
// reading.
func rerankSignals(s *rank.Signals) *RerankSignals {
	return &RerankSignals{
		BM25Share: round3(s.BM25Share), NameWords: s.NameWords, NameWordsMatched: s.NameWordsMatched, Name: round3(s.Name),
		Action: s.Action, ActionScore: round3(s.ActionScore), ExactName: s.ExactName, ExactNameScore: s.ExactNameScore,
		Similarity: round3(s.Similarity), SimilarityScore: round3(s.SimilarityScore), ClauseScore: round3(s.ClauseScore),
		ServerScore: round3(s.ServerScore),
	}
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
	case schema.NameExact:
		return "exact name"
	case schema.ServerWords:
		return "server name"
	case schema.Related:
		return "related words"
	case schema.Gloss:
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
		label := f.Field
		if f.Field == RequestField && e.Request != nil {
			label = fmt.Sprintf("%s %q", f.Field, e.Request.Text)
		}
		parts[i] = label + ": " + strings.Join(terms, ", ")
	}
	s := strings.Join(parts, "; ")
	if e.Rerank != nil {
		s += "; re-ranked: " + e.Rerank.summary(strings.HasPrefix(e.Vectors, "hosted"))
	}
	if e.Vectors != "" {
		s += "; vectors: " + e.Vectors
	}
	return s
}

// summary renders r in one line; hosted says the similarity is the hosted
// model's.
func (r *RerankSignals) summary(hosted bool) string {
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
		what := "word-vector"
		if hosted {
			what = "hosted-model"
		}
		s += fmt.Sprintf(", %s similarity %.3f (%+.3f)", what, r.Similarity, r.SimilarityScore)
	}
	if r.ClauseScore != 0 {
		s += fmt.Sprintf(", nearest to a clause (%+.3f)", r.ClauseScore)
	}
	if r.ServerScore != 0 {
		s += fmt.Sprintf(", its server named (%+.3f)", r.ServerScore)
	}
	if r.JoinedNamed {
		s += ", in the window for its server named"
	}
	return s
}

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }

// markOrigins marks the terms of fields that the caller did not type with
// where they come from.
func (r *Request) markOrigins(fields []FieldMatch) {
	origins := make(map[string]Origin, len(r.Terms))
	for _, t := range r.Terms {
		origins[t.Term] = t.Origin
	}
	for i := range fields {
		for j := range fields[i].Terms {
			if o := origins[fields[i].Terms[j].Term]; o != Typed {
				fields[i].Terms[j].Origin = o.String()
			}
		}
	}
}
