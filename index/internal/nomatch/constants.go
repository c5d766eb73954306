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

// A kept page the fit model reads as a fit by FitHintMargin or more (its
// score's log-odds past its threshold) does not name, in its hint, an
// object that only the names of the caller's tools lack, nor a lower-case
// word no item holds of a request in another language (fit-hints): the
// margin was chosen, before the second part, on the dev halves (log: "fit-hints"), where right first pages
// hinted fell everyday .075 → .066 at 0 to 1.5 (at 2, .075), broad
// .165 → .118 at 0 and .129 at 1 to 2.5; the near misses named held at
// every margin. 0 loses "find the cheapest flight to lisbon"'s hint (a
// fit by 0.79, by its errand score) naming the flight; 1 keeps it.
const FitHintMargin = 1.0
