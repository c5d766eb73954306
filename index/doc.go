// Package index turns catalogs of MCP list answers into a prebuilt,
// read-only search index (a bundle) and answers searches, lists and
// lookups from it.
//
// A catalog (package catalog: [catalog.LoadDir]) is a directory of JSON
// files, one per upstream server, each holding that server's raw
// tools/list, prompts/list, resources/list and resources/templates/list
// answers. [Build] (or [BuildDir]) writes a bundle atomically (the format
// is package internal/bundle's: its manifest, writers and build folder):
//
//	<dir>/manifest.json   format version, index version, counts, file sizes and hashes
//	<dir>/servers.json    the servers, their upstreams and items by kind, read on first use
//	<dir>/bleve/          segment.zap: the one bleve segment (internal/segmentfile); files 0644, directories 0755
//	<dir>/meta.*          each item's name, server and name words (internal/store)
//	<dir>/objects.*       each item's MCP object, zstd blocks (internal/store)
//	<dir>/vectors.bin     each item's word-vector mean (internal/vectors)
//	<dir>/requests.bin    the items' written requests (or their own text), their texts and postings (internal/requests)
//	<dir>/hosted.bin      optional: each item's vector from a hosted model (internal/hosted; internal/bundle/hosted.go)
//	<dir>/docorder.bin    each bleve document's position in catalog order (internal/store)
//
// The index version is the SHA-256 of the canonical catalog (and of the
// format version: [catalog.Catalog.Version]), so equal catalogs give equal
// versions although bleve's bytes differ from build to build. [Open]
// refuses a bundle whose manifest is missing, of another format, not of
// the checksum it records, whose files do not have the recorded sizes, or
// whose segment does not hold the documents the manifest counts (zap
// trusts its footer's count); the other files are checked by checksums of their own where
// they are read (internal/checksum), bleve's segment excepted. It opens
// the index read-only and writes nothing, so a bundle on a read-only file
// system owned by another user (as in Lambda) opens. [Verify] also checks
// every file's hash.
//
// *Index implements ext.Searcher, ext.Resolver, ext.Selector (exact
// lookups for select: queries, select.go), ext.Describer and ext.Directory
// (each caller's servers, with their serverInfo description or their
// tools' commonest words, internal/directory). A search (search.go) is the
// retrieval pipeline (internal/retrieval, which reads the bundle through
// the retrieval.Source this package implements): it reads the query's text
// once, as plain words (internal/text), never as bleve query syntax,
// corrects unknown words, retrieves candidates by BM25 over bleve's
// postings, term at a time, outside bleve's query engine (internal/bm25),
// adds to each item's score its best-matching written request
// (internal/requests), joins the items nearest the query's word vectors
// (internal/vectors), re-ranks the first of them (internal/rank, where
// every tuned number lives), answers with no items when the best fits too little of a short
// query; then this package loads the page's objects (internal/store). The
// explain option shows the same scores split by field and term, and the
// re-ranking signals as they were summed (retrieval.Explain).
//
// Items may be restricted to groups and OAuth scopes (catalog.Visibility).
// Every search, list and lookup serves the caller in its context
// (ext.AccessFrom): searches carry a filter clause on the visibility field,
// so hidden items never take a place in the ranking or the page; lists and
// lookups read the manifest's visibility table (internal/sight). BM25
// statistics (document counts, term frequencies, field lengths) are those
// of the whole catalog.
//
// Importing the package does nothing: it reads and writes bleve's segment
// with zap directly (internal/segmentfile), neither through scorch, whose
// package initialisation builds two Levenshtein automata, nor through
// bleve's top-level package, which starts workers and publishes expvar
// statistics when imported. Of bleve's
// process-wide state, the text analysis registers its token filters in
// bleve's registry on the first Build or Open (the mapping names them, and
// bleve needs them to read the mapping), and the bound on a disjunction's
// clauses (searcher.DisjunctionMaxClauseCount) is left as it is, since no
// bleve searcher runs: a query's size is bounded by retrieval.MaxSearchTerms
// instead.
package index
