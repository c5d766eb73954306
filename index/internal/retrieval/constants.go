package retrieval

// The tuned numbers of retrieval that this package alone reads (those the
// re-ranking and the no-match decision read too stay in package rank),
// each with why it is what it is and where that was measured. "Log" is
// the technique log of index/README.md (Retrieval quality): each step's
// figures on the public benchmarks (bash infra/lab/eval/gate.sh), and
// what was tried and not kept. Change one only with the gate's figures
// before and after. They are read at query time only: this file is hashed
// into index.QueryID (package versions).

// Field boosts of the text query: one clause per field, a disjunction of
// the query's words in that field (textQuery).
const (
	boostDescription = 1.5 // log: "field weights: description 1.5, name 1.2, title 1.0" (azure R@1 .778 → .782)
	boostName        = 1.2 // log: same step; a name weight of 2.5 cost azure R@1 .742 → .687
	boostTitle       = 1.0 // log: same step
	boostParams      = 0.7 // log: "parameters weighted 0.7 (from 0.5)" (azure R@1 .803 → .808)
	boostServerWords = 0.5 // the server's name says little of which of its tools is meant; set with the first query (commit 0bc0388), kept by every step since
	boostURI         = 1.0 // a resource's URI and MIME type weigh as its title (commit 0bc0388); no set measures resources
	boostRelated     = 0.3 // log: "WordNet synonyms … in a field of their own (weight 0.3)"
	boostContent     = 0.5 // a resource's text is long and loosely about it: as the server's words (commit c8da62e); no set measures resources
	boostGloss       = 0.5 // log: "Chinese glosses … (weight 0.5)"; 0.3 to 1.5 all within .005
)

// Written requests (index/internal/requests), tuned on the dev halves of
// the everyday and fresh sets over the default catalog (log: "written
// requests as evidence"):
const (
	// requestWeight weighs an item's best-matching written request: the
	// share of the query's weight the request holds, times requestWeight,
	// adds to the item's BM25 score (written-requests). 0.15 to 0.5 are
	// within .01 of each other on everyday dev nDCG; 1 and more lower
	// fresh dev R@1 (.743 at 0.25, .716 at 1, .676 at 4).
	requestWeight = 0.25
	// requestFitShare is the share of a short query's weight an item's
	// best request must hold for the words of that request to count as
	// held by the item in the no-match test (request-fit): at 0.4 the
	// off-catalog requests kept items more often (dev no-match .547 →
	// .453); from 0.8 none did, and the everyday requests emptied fell
	// .021 → .007.
	requestFitShare = 0.8
	// requestFitCovered is the share of the request's own weight the
	// query must hold too (requests.Index.Covered), so that a request
	// whose words hold the query's but that asks for something else is
	// no fit ("dig up the receipts I got for the flight to Lisbon" for
	// "book a flight to Lisbon"): everyday dev emptied .007 at 0 and 0.4,
	// .014 at 0.5 (one request), .021 at 0.6; no-match unchanged.
	requestFitCovered = 0.5
)

// exactNameBoost lifts an item whose own name is the whole query far
// above any BM25 score, so it enters the re-ranking window.
const exactNameBoost = 20

// RerankWindow: the first RerankWindow BM25 candidates, and the items the
// vectors add, are re-ranked (rank.Rerank); log: "re-rank the best 20, not
// 100"; 15, 30, 40 all lower (livemcpbench R@10 .517, .528, .530 against
// .532).
const RerankWindow = 20

// NamedServerItems: the best items of the servers a query names that join
// the re-ranking window (named.go): enough for a server's create, list
// and get of one object; issue 36 (no Slack tool in the first 1,000 for
// a request naming Slack).
const NamedServerItems = 5

// NamedServersJoined bounds the servers whose best items join the window
// (named.go): the servers the query's words name, best item first.
const NamedServersJoined = 3

// Dense fusion (addDense, package vectors): the cosine of the query's and
// the item's word-vector means (its weight in the re-ranking is
// rank.DenseWeight).
const (
	DenseCandidates = 5   // nearest items that join the window; log: "word vectors: cosine of SIF means × 0.8"; 3 or 8 no gain
	denseMinCosine  = 0.4 // nearer items only join it: any bar up to 0.4 costs no recall and keeps a small catalog's unrelated items out; 0.5, 0.6 cost metatool R@10 (.734 → .727, .720)
)

// Multi-vector queries (dense.go): a query of more than
// rank.MaxCommandWords words is also split into clauses, each with a
// vector; log: "multi-vector queries" (livemcpbench R@1 .185 → .206).
const (
	clauseCandidates = 2    // each clause's nearest items joining the window; 3 within .005, lifting 2 or 3 lower
	weightClauseBest = 0.24 // the lift of the window item nearest a clause; 0.18, 0.3, 0.32, 0.48 lower or equal
	maxClauses       = 6    // clauses of a query at most (at most 6 more vector scans); 4 or 10 within .005
	minClauseWords   = 2    // shorter fragments are no clause; three words or more within .005
)

// maxLackedInHint is how many of the query's words its best item lacks
// the near-miss hint names at most (nomatch.go; the words it names weigh
// at least rank.LackWeightRatio times the heaviest word it holds).
const maxLackedInHint = 3

// Bounds on what one query costs, whatever its words (README "Limits";
// commit d9d994d "every query's cost is bounded by its size";
// BenchmarkWorstQuery and TestWorstQueryMemory measure them).
const (
	// MaxSearchTerms bounds the terms a query searches: its first
	// distinct ones, of which at most MaxSearchTerms/2 pairs of Chinese
	// characters, and again after correction, which may add some
	// (firstTerms). Before that, a query is read only to its
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

// Typo correction (typo.go): a word the index does not know, of
// MinTypoRunes to MaxTypoRunes characters, is replaced by the nearest
// known word within one edit, two from twoEditRunes characters; log:
// "typo correction" (neutral on the sets, which have no typos; the
// everyday set's typo subset measures it). The walks are bounded in steps
// (a step costs about 0.1 µs; a walk of the default catalog takes at most
// about 700).
//
// Words of minShortTypoRunes to MinTypoRunes-1 characters (pul, cnfg)
// are corrected too, at one edit, but only to a word held by
// at least minShortTypoShare of the items: a short word has many
// neighbours, and only a frequent one is a likely meaning (pul → pull;
// pho, a soup, is not php).
const (
	MinTypoRunes      = 5
	minShortTypoRunes = 3
	minShortTypoShare = 0.005
	minShortTypoDocs  = 10
	MaxTypoRunes      = 24
	twoEditRunes      = 8
	typoWalkSteps     = 4096 // one dictionary walk; cut short, it offers the nearest term found
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
	// space (blobstorage, piechart: typowords.go): shorter halves are
	// mostly not the words meant.
	MinSplitRunes = 3
	// maxWordTableWalks bounds the words of a query compared with the
	// English words of the word vectors' table (typowords.go): a scan of
	// the words of one first letter, at most about 3,500.
	maxWordTableWalks = 8
	// wordTableCandidates is how many of those English words nearest a
	// typo, the most frequent, are looked up in the index: the one most
	// items hold is the correction (delte: delete, not delta).
	wordTableCandidates = 4
)
