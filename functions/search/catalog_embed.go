//go:build !nocatalog

package main

import (
	"embed"
	"io/fs"

	librarydata "github.com/mcpsearch/mcpsearch/ext/catalog/library/data"
)

//go:embed catalog/*.json
var catalogFiles embed.FS

// defaultCatalog is the bundled default catalog: the tools/list, prompts/list,
// resources/list and resources/templates/list answers of 67 published MCP
// servers (see catalog/SOURCES.md for their licences). Lambda builds leave
// it out with -tags nocatalog: they serve a prebuilt bundle.
var defaultCatalog, _ = fs.Sub(catalogFiles, "catalog")

// defaultLibrary is the library of public servers' requests
// (ext/catalog/library/data), attached at the local build; Lambda builds
// (nocatalog) carry none of it.
var defaultLibrary = librarydata.Library
