// Package bm25 scores bleve's postings with bleve's BM25 formula, term at
// a time, outside bleve's query engine: [Top] returns the best documents of
// a [Query], [Contributions] splits their scores by field and term (the
// explain option), [Allowed] evaluates filters. Scores equal bleve's own
// (retrieval's TestBM25MatchesBleve and the index's TestExplainMatchesBleve
// compare them on every query shape).
//
// bleve's searchers walk
// every query term's postings in step, one document at a time, through a
// disjunction of disjunctions, and build a pooled match object for every
// document they visit; on the default catalog that was two thirds of a
// search. The scorer here reads the same postings through bleve's index
// reader one term at a time into dense accumulators (term-at-a-time), and
// computes exactly bleve's BM25 scores, so the ranking is the one bleve
// gives (TestBM25MatchesBleve compares both on every query of the test
// tables); the explain option splits the same scores by field and term on
// the page's documents (Contributions; TestExplainMatchesBleve
// compares it with bleve's explanations).
//
// bleve's scoring, as reproduced:
//
//	leaf (term t in field f, boost w):
//	  idf    = ln(1 + (N - df + 0.5) / (df + 0.5))     N: items of the kind
//	                                                   (with a Scope, N and df
//	                                                   count what a caller sees)
//	  weight = (w * idf)²
//	  score  = idf * (√tf * k1) / (√tf + k1 * (1 - b + b * len / avgLen))
//	           * (w * idf * queryNorm)
//	queryNorm = 1 / √(sum of every leaf's weight)
//	disjunction: (sum of matched children's scores) * matched / children
//	conjunction: sum of its children's scores (filters score 0)
//
// where len = 1 / norm² from the posting, and avgLen = ⌈field length /
// N⌉; a field with no length falls back to TF-IDF's idf, 1 + ln(N / (df +
// 1)), which only enters the norm (such a field has no postings).
//
// A query's cost is its postings: with Query.MaxPostings set, the terms
// whose postings (over every field) are the most are left out, most
// first, until the rest fit, and the query is scored, by Top and
// Contributions alike, exactly as the query without them would be.
package bm25
