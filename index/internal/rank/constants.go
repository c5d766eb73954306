package rank

// Every tuned number of retrieval and ranking, each with why it is what it
// is and where that was measured. "Log" is the technique log of
// index/README.md (Retrieval quality): each step's figures on the public
// benchmarks (bash infra/lab/eval/gate.sh), and what was tried and not kept.
// Change one only with the gate's figures before and after.

// Field boosts of the text query: one clause per field, a disjunction of
// the query's words in that field (retrieval.textQuery).
const (
	BoostDescription = 1.5 // log: "field weights: description 1.5, name 1.2, title 1.0" (azure R@1 .778 → .782)
	BoostName        = 1.2 // log: same step; a name weight of 2.5 cost azure R@1 .742 → .687
	BoostTitle       = 1.0 // log: same step
	BoostParams      = 0.7 // log: "parameters weighted 0.7 (from 0.5)" (azure R@1 .803 → .808)
	BoostServerWords = 0.5 // the server's name says little of which of its tools is meant; set with the first query (commit 0bc0388), kept by every step since
	BoostURI         = 1.0 // a resource's URI and MIME type weigh as its title (commit 0bc0388); no set measures resources
	BoostRelated     = 0.3 // log: "WordNet synonyms … in a field of their own (weight 0.3)"
	BoostContent     = 0.5 // a resource's text is long and loosely about it: as the server's words (commit c8da62e); no set measures resources
	BoostGloss       = 0.5 // log: "Chinese glosses … (weight 0.5)"; 0.3 to 1.5 all within .005
)

// Written requests (index/internal/requests), tuned on the dev halves of
// the everyday and fresh sets over the default catalog (log: "written
// requests as evidence"):
const (
	// RequestWeight weighs an item's best-matching written request: the
	// share of the query's weight the request holds, times RequestWeight,
	// adds to the item's BM25 score (written-requests). 0.15 to 0.5 are
	// within .01 of each other on everyday dev nDCG; 1 and more lower
	// fresh dev R@1 (.743 at 0.25, .716 at 1, .676 at 4).
	RequestWeight = 0.25
	// RequestFitShare is the share of a short query's weight an item's
	// best request must hold for the words of that request to count as
	// held by the item in the no-match test (request-fit): at 0.4 the
	// off-catalog requests kept items more often (dev no-match .547 →
	// .453); from 0.8 none did, and the everyday requests emptied fell
	// .021 → .007.
	RequestFitShare = 0.8
	// RequestFitCovered is the share of the request's own weight the
	// query must hold too (requests.Index.Covered), so that a request
	// whose words hold the query's but that asks for something else is
	// no fit ("dig up the receipts I got for the flight to Lisbon" for
	// "book a flight to Lisbon"): everyday dev emptied .007 at 0 and 0.4,
	// .014 at 0.5 (one request), .021 at 0.6; no-match unchanged.
	RequestFitCovered = 0.5
)

// The errand model (package errand, errand-model): a request it scores
// below ErrandThreshold gets no items, on a kind whose items carry written
// requests for MinAskedShare of them or more. Tuned on the everyday dev
// half and the off-catalog requests' dev half (log: "the errand model"):
// at -2, -1, 0, 1 and 2, off-catalog no-match .688, .719, .719, .750,
// .797 and everyday emptied .021, .029, .029, .036, .036; 0 is the
// model's own boundary, an errand as likely as software.
const (
	ErrandThreshold = 0.0
	MinAskedShare   = 0.5
)

// ExactNameBoost lifts, in retrieval, an item whose own name is the whole
// query far above any BM25 score, so it enters the re-ranking window.
const ExactNameBoost = 20

// GenericWeight scales generic words (text.IsGeneric: show, list, get,
// please …) in the query; log: "generic words … weighted 0.3" (livemcpbench
// R@10 .419 → .438). Re-ranking still reads the verbs as actions.
const GenericWeight = 0.3

// Re-ranking (Rerank): the first RerankWindow BM25 candidates, and the
// items the vectors add, are scored by their BM25 share of the best plus
// these signals.
const (
	RerankWindow       = 20   // log: "re-rank the best 20, not 100"; 15, 30, 40 all lower (livemcpbench R@10 .517, .528, .530 against .532)
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

// Dense fusion (retrieval.addDense, package vectors): the cosine of the query's
// and the item's word-vector means.
const (
	DenseWeight     = 0.8 // the cosine's weight in the re-ranking; log: "word vectors: cosine of SIF means × 0.8"; 0.6 and 1.0 lower (azure R@1 .829 → .825 at 1.0)
	DenseCandidates = 5   // nearest items that join the window; log: same step; 3 or 8 no gain
	DenseMinCosine  = 0.4 // nearer items only join it: any bar up to 0.4 costs no recall and keeps a small catalog's unrelated items out; 0.5, 0.6 cost metatool R@10 (.734 → .727, .720)
)

// Multi-vector queries (retrieval dense.go): a query of more than
// MaxCommandWords words is also split into clauses, each with a vector;
// log: "multi-vector queries" (livemcpbench R@1 .185 → .206).
const (
	ClauseCandidates = 2    // each clause's nearest items joining the window; 3 within .005, lifting 2 or 3 lower
	WeightClauseBest = 0.24 // the lift of the window item nearest a clause; 0.18, 0.3, 0.32, 0.48 lower or equal
	MaxClauses       = 6    // clauses of a query at most (at most 6 more vector scans); 4 or 10 within .005
	MinClauseWords   = 2    // shorter fragments are no clause; three words or more within .005
)

// The no-match test (retrieval nomatch.go): a short query whose best item
// holds less than MinCoverage of its weight gets no items and a hint; log:
// "no-match cut-off for short queries" (no-match on negatives .96 / .88 /
// .90 from .63 / .35 / .49). Long queries describe a task and carry words
// no tool holds: any bar on them cost recall.
const (
	MinCoverage     = 0.35
	ShortQueryTerms = 4 // words of a short query at most
)

// A short query whose best item fails MinCoverage keeps its items when an
// item of the first FitWindow holds FitCoverage of its weight; log: "a
// fitting item among the first 10" (everyday dev emptied .086 → .050,
// off-catalog dev no-match .406 unchanged; 5 items or a bar of 0.35–0.4
// rescued fewer requests or emptied fewer negatives).
const (
	FitWindow   = 10
	FitCoverage = 0.45
)

// The near-miss hint (retrieval nomatch.go): a page keeps its items, and its
// hint names the query's words its best item lacks that weigh at least
// LackWeightRatio times the heaviest word it holds (at most
// MaxLackedInHint of them). At 2.5, 4 of the 132 everyday requests whose
// best item is right get such a hint ("approve Tom's merge request") and
// 29 of the 118 off-catalog requests that keep items do; at 2.0, 17 and
// 54; at 1.5, 36 and 82.
const (
	LackWeightRatio = 2.5
	MaxLackedInHint = 3
)

// Bounds on what one query costs, whatever its words (README "Limits";
// commit d9d994d "every query's cost is bounded by its size";
// BenchmarkWorstQuery and TestWorstQueryMemory measure them).
const (
	// MaxSearchTerms bounds the terms a query searches: its first
	// distinct ones, of which at most MaxSearchTerms/2 pairs of Chinese
	// characters, and again after correction, which may add some
	// (retrieval.firstTerms). Before that, a query is read only to its
	// ext.MaxQueryTerms-th word, each part of an identifier and each
	// Chinese or Japanese character counting as one (text.FirstWords).
	MaxSearchTerms = 48
	// PostingsPerItem and MinPostings bound the postings one search's
	// terms walk: PostingsPerItem times the items of the kind searched,
	// at least MinPostings (bm25.Query.MaxPostings); past it the terms
	// with the most postings are left out, most first. 48 common words
	// walked 14 times the default catalog's items (about 11× an ordinary
	// search); the requests of the evaluation sets walk at most 2.9 times
	// theirs over the default catalog (9.5 times azure_mcp's 180 tools,
	// under MinPostings), so none reaches the bound.
	PostingsPerItem = 4
	MinPostings     = 16_384
)

// Typo correction (retrieval typo.go): a word the index does not know, of
// MinTypoRunes to MaxTypoRunes characters, is replaced by the nearest
// known word within one edit, two from TwoEditRunes characters; log:
// "typo correction" (neutral on the sets, which have no typos; the
// everyday set's typo subset measures it). The walks are bounded in steps
// (a step costs about 0.1 µs; a walk of the default catalog takes at most
// about 700).
//
// Words of MinShortTypoRunes to MinTypoRunes-1 characters (pul, cnfg)
// are corrected too, at one edit, but only to a word held by
// at least MinShortTypoShare of the items: a short word has many
// neighbours, and only a frequent one is a likely meaning (pul → pull;
// pho, a soup, is not php).
const (
	MinTypoRunes      = 5
	MinShortTypoRunes = 3
	MinShortTypoShare = 0.005
	MinShortTypoDocs  = 10
	MaxTypoRunes      = 24
	TwoEditRunes      = 8
	TypoWalkSteps     = 4096 // one dictionary walk; cut short, it offers the nearest term found
	// TypoQuerySteps bounds every walk of one query, and TypoQueryLookups
	// the document frequencies its corrections read (each in every text
	// field: of its words' nearest terms, of the word vectors' candidates,
	// of the halves of words run together); then later words are not
	// corrected. The 649 requests of infra/lab/eval's everyday, fresh,
	// offcatalog and livemcpbench sets over the default catalog take at
	// most 14,691 steps (99% at most 6,724) and 37 lookups (99% at most 21);
	// 128 typos took 32,768 steps, 128 words run together 150 lookups
	// (BenchmarkWorstQuery).
	TypoQuerySteps   = 16384
	TypoQueryLookups = 64
	// MinSplitRunes is the shortest half of a word typed without its
	// space (blobstorage, piechart: retrieval typowords.go): shorter halves
	// are mostly not the words meant.
	MinSplitRunes = 3
	// MaxWordTableWalks bounds the words of a query compared with the
	// English words of the word vectors' table (retrieval typowords.go): a
	// scan of the words of one first letter, at most about 3,500.
	MaxWordTableWalks = 8
	// WordTableCandidates is how many of those English words nearest a
	// typo, the most frequent, are looked up in the index: the one most
	// items hold is the correction (delte: delete, not delta).
	WordTableCandidates = 4
)

// WeightServerNamed is what a candidate gains when the query names its
// server (server.go).
const WeightServerNamed = 0.4
