// Package data embeds the library of public servers' requests (package
// ext/catalog/library): one file per server under servers/, generated from
// the default catalog and the lab's corpus by
//
//	go run ./infra/cmd/mcpsearch requests library --write
//
// (run from the repository's root; go generate ./ext/catalog/library/data
// runs it too). Only the command line and the local server import this
// package: the Lambda function, built with the nocatalog tag, does not, so
// its binary carries none of the library's data (infra/e2e checks it).
package data

//go:generate go run ../../../../infra/cmd/mcpsearch requests library --write

import (
	"embed"
	"io/fs"
	"sync"

	"github.com/mcpsearch/mcpsearch/ext/catalog/library"
)

//go:embed servers/*.json
var files embed.FS

// Library is the embedded library, read on first use.
var Library = sync.OnceValues(func() (*library.Library, error) {
	sub, err := fs.Sub(files, "servers")
	if err != nil {
		return nil, err
	}
	return library.Load(sub, "(embedded library)")
})
