//go:build nocatalog

package main

import "io/fs"

// defaultCatalog is absent from builds tagged nocatalog (the Lambda build).
var defaultCatalog fs.FS
