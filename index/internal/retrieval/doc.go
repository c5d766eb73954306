// Package retrieval is the search policy of the index: how a query is read,
// which items are retrieved, how they are ranked, and when none fits. It
// reads a bundle only through Source, which package index implements (the
// postings, statistics, records and vectors of an open bundle, and what one
// caller may see of them), so that its steps can be read in one place and
// measured one by one. Its tests read bundles through package
// retrievaltest, a Source of a catalog given in memory that answers as
// package index's does (TestSameAsIndex).
//
// A search is three calls:
//
//   - Read reads the caller's text once (ReadText bounds it first): the
//     query passes add the words tools use (file names, glosses of other
//     languages, phrases, everyday words), the analyser makes terms of
//     them, and typo correction resolves each term among the items the
//     caller sees. The Request remembers what it read and what correcting
//     cost.
//   - Rank retrieves and ranks: BM25 over the text fields (package bm25),
//     to which each item's best-matching written request and its server's
//     add (package requests), and the items nearest the query's vectors,
//     then the re-ranking of the window (package rank), then the no-match
//     test, which may empty the page and says why in a hint.
//   - Explain says why each item of a page ranks where it does, the
//     matched written request included.
//
// Every rule of the pipeline is registered by name in package rules and
// asked for before it applies: a Request carries the rules switched off,
// and with none off the pipeline is what the product serves. README.md
// lists the steps in order with what each rule is measured to contribute
// (mcpsearch-lab eval --ablate).
//
// What a caller may not see it learns nothing of: every word is looked up,
// corrected and weighed among the items it sees (Sight); BM25 reads no
// posting of another (bm25.Scope), and its idf, average field lengths and
// postings bound count those items only, as the written requests' do
// (requests.View); whether most items carry requests is counted among
// them too; and the vectors' candidates are the nearest items it sees.
package retrieval
