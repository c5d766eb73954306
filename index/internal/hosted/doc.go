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
//	"MCPSHV1\n", uint32 n, n bytes of JSON head:
//	  {"backend", "model", "endpoint", "region", "dims", "counts"}
//	  (what embedded: no key is ever written; counts: items by kind, in
//	  ext.Kinds order)
//	dims × float32           the mean item vector
//	per item, catalog order: float32 scale (the cosine is scale × query ·
//	  row), dims × int8
//
// Open maps the file; rows are paged in as queries touch them.
package hosted
