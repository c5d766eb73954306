// Package index turns catalogs of MCP list answers into a prebuilt,
// read-only search index (a bundle) and answers searches and lists from it.
//
// A catalog is a directory of JSON files, one per upstream server, each
// holding that server's raw tools/list, prompts/list, resources/list and
// resources/templates/list answers ([LoadDir]). [Build] writes a bundle
// atomically:
//
//	<dir>/manifest.json   format version, index version, counts, file sizes and hashes
//	<dir>/bleve/          one bleve (scorch) segment, files 0644, directories 0755
//	<dir>/meta.*          each item's name, server and name words (store.go)
//	<dir>/objects.*       each item's MCP object, zstd blocks (store.go)
//	<dir>/vectors.bin     each item's word-vector mean (itemvec.go)
//	<dir>/docorder.bin    each bleve document's position in catalog order (docorder.go)
//
// The index version is the SHA-256 of the canonical catalog (and of the
// format version), so equal catalogs give equal versions although bleve's
// bytes differ from build to build. [Open] refuses a bundle whose manifest is
// missing, of another format, whose files do not have the recorded sizes,
// or whose root.bolt does not have the recorded hash (bolt trusts its pages:
// guard.go); it opens the index read-only and writes nothing, so a bundle on a read-only
// file system owned by another user (as in Lambda) opens. [Verify] also
// checks every file's hash.
//
// *Index implements ext.Searcher. Query text is analysed as plain words and
// never parsed as bleve query syntax. Retrieval scores bleve's postings with
// bleve's BM25 formula but term-at-a-time, outside bleve's query engine
// (bm25.go); the explain option asks bleve itself for the same scores.
//
// Items may be restricted to groups and OAuth scopes ([Visibility]). Every
// search, list and lookup serves the caller in its context
// (ext.AccessFrom): searches carry a filter clause on the visibility field,
// so hidden items never take a place in the ranking or the page; lists and
// lookups read the manifest's visibility table. BM25 statistics (document
// counts, term frequencies, field lengths) are those of the whole catalog.
package index
