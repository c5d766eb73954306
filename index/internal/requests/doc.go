// Package requests is the index of the requests written for a bundle's
// items (catalog.Item.Requests): what people ask for when they need an
// item, kept as evidence beside the item's own text.
//
// Each request is a document of its own. A query is matched against every
// request of the kind searched, by BM25 (Okapi, with bleve's k1 and b),
// and an item counts only its best-matching request: six requests of an
// item do not add up their words as one bag would, and a long list of
// requests does not make an item match everything. [Search.Best] returns,
// for the items a caller sees, the share of the query's weight their best
// request holds, and which request that was (explanations show it).
//
// A caller who may not see every item learns nothing of the other items'
// requests: a term's idf counts the requests of the items the caller sees.
//
// The file (File) is written at build time (Write) and mapped into memory
// (Open), which reads its head and checks the offsets of its items and
// terms; what is written once a request or once a posting is checked
// where it is read, so that opening does not pass over the file (at
// 100,000 tools, 0.3 ms instead of 4.6 ms: BenchmarkOpen):
//
//	magic "MCPSRQ1\n"
//	u32 items, requests, terms, postings, servers
//	per kind of ext.Kinds: u32 first item, items, requests, total length
//	itemFirst  (items+1) × u32   first request of each item, in catalog order
//	itemDoc    items × u32       the item's document number in the postings
//	itemServer items × u32       the item's server, an index into the servers
//	serverOff  (servers+1) × u32 each server's name in the server blob
//	reqItem    requests × u32    the catalog position of each request's item
//	reqLen     requests × u16    terms in each request
//	textOff    (requests+1) × u32  each request's text in the text blob
//	termOff    (terms+1) × u32   each term in the term blob, terms sorted
//	postOff    (terms+1) × u32   each term's first posting
//	postReq    postings × u32    the request of each posting, ascending per term
//	postTF     postings × u8     the term's count in that request
//	term blob, text blob, server blob
//
// All integers are little-endian.
package requests
