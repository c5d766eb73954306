// Package versions holds the two identities of the knowledge built into
// this binary, as constants (ids.go, generated: nothing is hashed at
// start-up), split by when the knowledge applies:
//
//   - [Build] is what a bundle's bytes depend on: the build-time tables
//     (the analyser's synonyms and stop words, the WordNet expansions, the
//     Chinese glosses, the word vectors), the build-time constants
//     (index/internal/vectors constants.go) and the writers' own source (the
//     documents, the mapping, the vectors, requests and hosted vectors
//     written). A bundle records it; index.Open refuses a bundle built with
//     another, and the index version of a catalog (index.VersionOf, the
//     local server's cache key) changes with it.
//   - [Query] is the query-time knowledge: the request frames, the phrase table, the tool vocabulary a hint names from, the query
//     expansions, the foreign words, the generic, time and stop word lists,
//     the ranking constants read only at query time, and the errand and fit
//     models. The server reports and logs it; it refuses nothing.
//
// Each is the first 16 hex digits of a SHA-256 over its files, in a fixed
// list (ids_test.go, which says which file is which; a file of the
// knowledge packages in neither list fails the test), each by name and
// content. A Go file is hashed by its tokens, its comments left out (but
// //go:embed lines), so that a comment edit changes neither identity; a
// data file by its bytes (frames.txt, phrases.txt and synonyms.txt without their "#" comment lines). Run `go generate ./index/internal/versions` (or
// `go test ./index/internal/versions -run TestIDs -update`) after a change:
// TestIDs fails until then.
package versions

//go:generate go test -run TestIDs -update .
