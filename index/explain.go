package index

import (
	"github.com/mcpsearch/mcpsearch/index/internal/nomatch"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval"
)

// Explanation says why a search hit ranks where it does (retrieval.Explain):
// what Search puts in ext.Hit.Explain when the query asks for it, and what
// clients read in _meta[ext.MetaExplain].
type Explanation = retrieval.Explanation

// FieldMatch is the part of the BM25 score one field contributed.
type FieldMatch = retrieval.FieldMatch

// TermMatch is the part of a field's score one query term contributed.
type TermMatch = retrieval.TermMatch

// RerankSignals are the terms of a re-ranked score.
type RerankSignals = retrieval.RerankSignals

// PageExplanation is what a search page's Explain says (ext.Page): the
// no-match decision the search reached, "fit-model empty", "kept"
// (the retrieval README's decision list).
type PageExplanation = nomatch.Explanation
