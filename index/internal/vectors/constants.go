package vectors

// The build-time constants of the vectors: a bundle's bytes depend on them
// (the vectors Write writes), so this file is hashed into index.BuildID
// with the writers (package versions), and a bundle built with other
// values is refused and rebuilt. (They were package rank's build.go until
// each constant moved to the package that reads it.)

// Vectors of items (written by Write).
const (
	// requestVectorWeight weighs the mean of an item's written requests'
	// vectors beside its own text's in its vector, both at unit length
	// (as Tool2Vec): everyday dev nDCG .835 at 0, .859 at 0.5, .871 at 1,
	// .864 at 2.
	requestVectorWeight = 1.0
	// paramVectorWeight scales the words of parameters in an item's vector
	// (measured at 0, 0.3, 0.5 and 1 when word vectors came in, commit
	// b55bd31).
	paramVectorWeight = 0.3
	// sifA is a of the SIF weight a/(a+p) of a word of probability p;
	// measured best of 1e-2 … 3e-5; log: "SIF a = 1e-3 rather than 1e-4"
	// (livemcpbench .484 / .403 → .474 / .394).
	sifA = 1e-4
)

// Dense search: a kind's vectors are grouped into lists around k-means
// centroids, and a query scans the nearest lists.
const (
	rowsPerList  = 256 // about this many items a list
	MinScan      = 512 // rows a query scans at least; a kind of at most this many is one list (exact); README "Retrieval quality": metatool R@10 .434 scanning, .437 exact, 0.06 ms a query at 10k tools
	kMeansRounds = 8   // rounds of spherical k-means at build time, on a sample of 64 items a list
)
