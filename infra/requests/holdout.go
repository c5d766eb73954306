package requests

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/infra/crawl"
)

// HeldOut is a written request taken out of its tool's requests to be
// asked as a query: its server, the tool's canonical name (the query's
// gold) and the request.
type HeldOut struct {
	Server, Tool, Request string
}

// HoldOut writes into outDir a copy of each server file of the catalog in
// catalogDir with the first n written requests of every tool that has more
// than n taken out, and returns them: the tool keeps its others, so its
// requests still count as the index counts them (a tool whose requests are
// all held out would be a catalog without requests), and what it is asked
// is in no written request of the copy. Prompts, resources and templates
// keep theirs. outDir (made if missing) may hold other catalogs' server
// files (a measurement of one catalog among others), but none of the same
// name: HoldOut writes nothing over a file, and makes and writes nothing
// at all when a file is at fault.
func HoldOut(catalogDir, outDir string, n int) ([]HeldOut, error) {
	if n < 1 {
		return nil, fmt.Errorf("hold out %d requests a tool: want at least 1", n)
	}
	cat, err := catalog.LoadDir(catalogDir, nil)
	if err != nil {
		return nil, err
	}
	if sameDir(catalogDir, outDir) {
		return nil, fmt.Errorf("hold out into %s: that is the catalog itself; want another directory", outDir)
	}
	files, held, err := heldOutFiles(cat, outDir, n)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, err
	}
	for _, f := range files {
		if err := crawl.ReplaceFile(outDir, f.path, f.data); err != nil {
			return nil, err
		}
	}
	return held, nil
}

// serverFile is a server file to write.
type serverFile struct {
	path string
	data []byte
}

// heldOutFiles returns each server file of cat as it is written to outDir,
// its tools' first n requests taken out, and those requests.
func heldOutFiles(cat *catalog.Catalog, outDir string, n int) ([]serverFile, []HeldOut, error) {
	var files []serverFile
	var held []HeldOut
	for _, s := range cat.Servers {
		out := filepath.Join(outDir, filepath.Base(s.File))
		if _, err := os.Lstat(out); !errors.Is(err, fs.ErrNotExist) {
			return nil, nil, fmt.Errorf("hold out server %s: %s exists (or cannot be read): want a directory without it", s.Name, out)
		}
		f := &File{Server: s.Name}
		for _, it := range cat.Items {
			if it.Server != s.Name || it.Kind != ext.KindTool || len(it.Requests) <= n {
				continue
			}
			f.Items = append(f.Items, Item{Kind: string(ext.KindTool), Name: it.UpstreamName, Requests: it.Requests[n:]})
			for _, r := range it.Requests[:n] {
				held = append(held, HeldOut{Server: s.Name, Tool: it.Name, Request: r})
			}
		}
		data, err := withRequests(s.File, f, s.File)
		if err != nil {
			return nil, nil, err
		}
		files = append(files, serverFile{out, data})
	}
	return files, held, nil
}
