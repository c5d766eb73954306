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
// An item without written requests gets its own text as requests
// (own.go), marked as such: it does not count as asked.
//
// A caller who may not see every item learns nothing of the other items'
// requests: a term's idf counts the requests of the items the caller sees.
//
// The file (File) is written at build time (Write) and mapped into memory
// (Open). Its head — everything a search reads wherever its words lead:
// the counts, the items' requests and documents, the requests'
// lengths, the terms and the offsets of their postings, and the checksums
// of the rest — is checked at open by its CRC-32C (package checksum), and
// the offsets of its items and terms are checked to ascend. The rest is
// checked where it is read, the first time (checksum.Checked), so that
// opening does not pass over the file (at 100,000 tools the head is about
// 3 of 67 MB): a term's postings when the term is looked up (every reader
// of them looks it up first), a chunk of 256 requests' texts when one of
// them is read (Text).
//
// A part found damaged where it is read panics with a *checksum.Damage
// naming the file and the part: the readers return no errors (score.go
// reads the sections in place), and package index recovers the panic into
// the error of the search, so that a damaged file is an error of the
// answer that reads the damage, never a changed answer.
//
//	magic "MCPSRQ4\n"
//	u32 items, requests, terms, postings
//	per kind of ext.Kinds: u32 first item, items, requests, total length,
//	                             items with written requests, items with
//	                             their own text as requests
//	itemFirst  (items+1) × u32   first request of each item, in catalog order
//	itemDoc    items × u32       the item's document number in the postings
//	itemOwn    ⌈items/8⌉ bytes   a bit an item (item i: byte i/8, bit i%8): its
//	                             requests are its own text (OwnRequests)
//	reqLen     requests × u16    terms in each request
//	termOff    (terms+1) × u32   each term in the term blob, terms sorted
//	postOff    (terms+1) × u32   each term's first posting
//	termSum    terms × u32       the CRC-32C of each term's postReq and postTF
//	textSum    ⌈requests/256⌉ × u32  the CRC-32C of each chunk of 256 requests'
//	                             textOff entries (and the next) and texts
//	term blob
//	u32                          the CRC-32C of the head: all the above
//	textOff    (requests+1) × u32  each request's text in the text blob
//	postReq    postings × u32    the request of each posting, ascending per term
//	postTF     postings × u8     the term's count in that request
//	text blob
//
// All integers are little-endian.
package requests
