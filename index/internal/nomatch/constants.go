package nomatch

// The tuned numbers of the no-match decision, which retrieval reads to
// measure its signals, each with why it is what it is and where that was
// measured. "Log" is the technique log of index/README.md (Retrieval
// quality). Change one only with the gate's figures before and after.

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
