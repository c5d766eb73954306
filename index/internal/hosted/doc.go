// Package hosted writes and searches the item vectors of a hosted
// embeddings model (hosted.bin): the optional alternative to the word
// vectors of package vectors in the dense part of the ranking, for an
// operator who embeds the catalog with a model of their choosing at build
// time and each query with the same model at search time.
//
// Each item's text (ItemText: its name, title, description and
// parameters, as the word vectors read them) is embedded by the builder;
// Write centres the vectors on their mean (which otherwise dominates
// every cosine, as with the word vectors), brings them to unit length and
// quantises them to int8. A query's vector is centred on the same mean.
// The search is exact: every item of the kind is compared (Nearest), a
// dot product of int8 rows.
//
// File, all integers little-endian:
//
//	"MCPSHV2\n", uint32 n, n bytes of JSON head:
//	  {"backend", "model", "endpoint", "region", "dims", "counts"}
//	  (what embedded: no key is ever written; counts: items by kind, in
//	  ext.Kinds order)
//	dims × float32           the mean item vector
//	chunks × uint32          the CRC-32C of each chunk of 256 rows (the
//	                         last may be shorter)
//	uint32                   the CRC-32C of all the above
//	per item, catalog order: float32 scale (the cosine is scale × query ·
//	  row), dims × int8
//
// Open maps the file and checks its head by its CRC; rows are paged in as
// queries touch them, and each chunk of rows is checked by its CRC the
// first time a search reads one of its rows, then remembered as sound
// (checksum.Checked): a damaged row is an error of the search that reads
// it, never a changed cosine.
package hosted
