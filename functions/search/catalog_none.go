//go:build nocatalog

package main

import (
	"io/fs"

	"github.com/mcpsearch/mcpsearch/ext/catalog/library"
)

// defaultCatalog is absent from builds tagged nocatalog (the Lambda build).
var defaultCatalog fs.FS

// defaultLibrary is absent from builds tagged nocatalog: they attach no
// library at start.
var defaultLibrary func() (*library.Library, error)
