// Package vectors writes and searches the item vectors of a bundle
// (vectors.bin): dense retrieval.
//
// Each item has a vector: the SIF-weighted mean of the
// word vectors (text.WordTable) of its name, title, description and, weighted
// less, its parameters, less the mean item vector of the catalog (which
// otherwise dominates every cosine), at unit length and quantised to int8.
// A query gets its vector the same way. The cosine of the two bridges
// vocabulary: "weather" finds a tool that says "forecast".
//
// Each kind's vectors are grouped into lists around centroids (spherical
// k-means at build time, about rank.RowsPerList items a list); a query
// scans the lists of its nearest centroids until it has seen rank.MinScan
// rows. A kind of at most rank.MinScan items has one list, so its search is
// exact.
//
// File, all integers little-endian:
//
//	"MCPSIV1\n", uint32 dims, uint32 count
//	dims × float32           the mean item vector
//	per kind (ext.Kinds order):
//	  uint32 lists
//	  lists × dims float32   centroids
//	  lists+1 × uint32       first row of each list (and the end), in the kind's rows
//	count × uint32           the row of each item, in catalog order
//	count rows, by kind then list: uint32 ordinal within the kind,
//	  float32 scale (the cosine is scale × query · vector), dims × int8
//
// Open maps the file and decodes its head (mean, centroids, list bounds);
// rows are paged in as queries touch them, so opening costs little at any
// size.
package vectors
