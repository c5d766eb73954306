package rank

// The tuned numbers of the re-ranking, and those the query's reading
// (package text) reads with retrieval, each with why it is what it is and where that was measured;
// the numbers retrieval alone reads are its own (retrieval constants.go),
// the vectors' build-time numbers package vectors' (constants.go), the
// no-match decision's package nomatch's (constants.go). "Log" is the technique log of
// index/README.md (Retrieval quality): each step's figures on the public
// benchmarks (bash infra/lab/eval/gate.sh), and what was tried and not kept.
// Change one only with the gate's figures before and after.

// GenericWeight scales generic words (text.IsGeneric: show, list, get,
// please …) in the query; log: "generic words … weighted 0.3" (livemcpbench
// R@10 .419 → .438). Re-ranking still reads the verbs as actions.
const GenericWeight = 0.3

// Re-ranking (Rerank): the first retrieval.RerankWindow BM25 candidates,
// and the items the vectors add, are scored by their BM25 share of the
// best plus these signals.
const (
	weightCoverage     = 0.35 // share of the item's name words the query holds; log: "re-ranking by name coverage and action" (azure R@1 .649 → .681)
	weightActionMatch  = 0.15 // the name's verb is the query's action; log: same step
	weightActionClash  = 0.2  // the name's verbs are all other actions; log: "an action clash costs 0.2 (from 0.25)"
	weightExactName    = 2.0  // the item's name is the whole query: it goes first
	weightNameAllWords = 0.1  // the query holds every word of the name; log: "re-ranking by name coverage and action"
	weightPluralObject = 0.3  // log: "names holding the plural object of a short command" (azure R@1 .782 → .799)
	// MaxCommandWords: a query of at most this many words is a command
	// whose grammar (a plural object asks for a list) is read, and one of
	// more a task that is split into clauses; log: "a plural object in a
	// short command asks for a list".
	MaxCommandWords = 12
)

// DenseWeight is the weight in the re-ranking of the cosine of the
// query's and the item's word-vector means (retrieval.addDense, package
// vectors); log: "word vectors: cosine of SIF means × 0.8"; 0.6 and 1.0
// lower (azure R@1 .829 → .825 at 1.0).
const DenseWeight = 0.8

// The near-miss hint (retrieval nomatch.go): a page keeps its items, and its
// hint names the query's words its best item lacks that weigh at least
// LackWeightRatio times the heaviest word it holds (at most
// retrieval.maxLackedInHint of them). At 2.5, 4 of the 132 everyday
// requests whose best item is right get such a hint ("approve Tom's merge
// request") and 29 of the 118 off-catalog requests that keep items do; at
// 2.0, 17 and 54; at 1.5, 36 and 82.
const LackWeightRatio = 2.5

// weightServerNamed is what a candidate gains when the query names its
// server (server.go).
const weightServerNamed = 0.4
