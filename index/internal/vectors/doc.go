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
// k-means at build time, about rowsPerList items a list); a query
// scans the lists of its nearest centroids until it has seen MinScan
// rows. A kind of at most MinScan items has one list, so its search is
// exact.
//
// File, all integers little-endian:
//
//	"MCPSIV2\n", uint32 dims, uint32 count
//	dims × float32           the mean item vector
//	per kind (ext.Kinds order):
//	  uint32 lists
//	  lists × dims float32   centroids
//	  lists+1 × uint32       first row of each list (and the end), in the kind's rows
//	  lists × uint32         the CRC-32C of each list's rows
//	uint32                   the CRC-32C of the head: all the above
//	count × uint32           the row of each item, in catalog order
//	count rows, by kind then list: uint32 ordinal within the kind,
//	  float32 scale (the cosine is scale × query · vector), dims × int8
//
// Open maps the file and decodes its head (mean, centroids, list bounds),
// which it checks by its CRC; rows are paged in as queries touch them, so
// opening costs little at any size. A list's rows are checked by their CRC
// the first time a search reads one of them (a scan of the list, or the
// cosine of one of its items), and the list is then remembered as sound
// (checksum.Checked): 1.4 µs a list of 256 rows, once. The row of an item
// (rowOf, not checked at open: 4 bytes an item) is trusted only when it
// lies among its kind's rows and holds the item's ordinal, which its
// list's CRC vouches for. Damage anywhere is an error of the search that
// reads it, never a changed cosine.
package vectors
