package rank

// The build-time constants: a bundle's bytes depend on them (the vectors
// the build writes), so they are hashed into index.BuildID with the
// writers, and a bundle built with other values is refused and rebuilt.
// Every other constant (constants.go) is read at query time only and is
// hashed into index.QueryID, which refuses nothing.

// Vectors of items (package vectors, written by vectors.Write).
const (
	// RequestVectorWeight weighs the mean of an item's written requests'
	// vectors beside its own text's in its vector, both at unit length
	// (as Tool2Vec): everyday dev nDCG .835 at 0, .859 at 0.5, .871 at 1,
	// .864 at 2.
	RequestVectorWeight = 1.0
	// ParamVectorWeight scales the words of parameters in an item's vector
	// (measured at 0, 0.3, 0.5 and 1 when word vectors came in, commit
	// b55bd31).
	ParamVectorWeight = 0.3
	// SIFA is a of the SIF weight a/(a+p) of a word of probability p;
	// measured best of 1e-2 … 3e-5; log: "SIF a = 1e-3 rather than 1e-4"
	// (livemcpbench .484 / .403 → .474 / .394).
	SIFA = 1e-4
)

// Dense search (package vectors): a kind's vectors are grouped into lists
// around k-means centroids, and a query scans the nearest lists.
const (
	RowsPerList  = 256 // about this many items a list
	MinScan      = 512 // rows a query scans at least; a kind of at most this many is one list (exact); README "Retrieval quality": metatool R@10 .434 scanning, .437 exact, 0.06 ms a query at 10k tools
	KMeansRounds = 8   // rounds of spherical k-means at build time, on a sample of 64 items a list
)
