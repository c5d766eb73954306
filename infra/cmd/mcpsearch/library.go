package main

import (
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/ext/catalog/library"
	librarydata "github.com/mcpsearch/mcpsearch/ext/catalog/library/data"
	"github.com/mcpsearch/mcpsearch/infra/artifact"
	"github.com/mcpsearch/mcpsearch/infra/cli"
	"github.com/mcpsearch/mcpsearch/infra/requests"
)

// libraryFlag declares --library: on (the default) attaches the library of
// public servers' requests to the items without requests, off does not.
func libraryFlag(fs *cli.FlagSet) *string {
	return fs.String("library", "on", "on: give the items without requests of their own the requests the library of public servers holds for them (matched by the server's package or serverInfo.name, then the item's name or description); off: build without")
}

// openLibrary is the embedded library for --library=on, nil for off; any
// other value is a usage error naming the flag.
func openLibrary(value string) (*library.Library, error) {
	switch value {
	case "off":
		return nil, nil
	case "on":
		return librarydata.Library()
	}
	return nil, fmt.Errorf("%w: --library: %q: want on or off", cli.ErrUsage, value)
}

// attachLibrary attaches the library named by the --library value to cat
// and returns the coverage.
func attachLibrary(cat *catalog.Catalog, value string) (*library.Coverage, error) {
	lib, err := openLibrary(value)
	if err != nil {
		return nil, err
	}
	return library.Attach(cat, lib), nil
}

// writeCoverage writes the build's coverage line (library.Coverage.String)
// after prefix.
func writeCoverage(w io.Writer, prefix string, cov *library.Coverage) {
	fmt.Fprintln(w, prefix+cov.String())
}

// runRequestsLibrary lists the library, or with --write generates it.
func runRequestsLibrary(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("requests library", stdout, stderr)
	write := fs.Bool("write", false, "generate the library's data files from the catalogs of --from, into --out (run from the repository)")
	from := fs.String("from", strings.Join(requests.LibrarySources, ","), "with --write: the catalog `DIRS` (comma-separated, relative to the repository's root) whose written requests make the library")
	out := fs.String("out", requests.LibraryDir, "with --write: the library's `DIR`, relative to the repository's root")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: requests library takes no operands, got %q", cli.ErrUsage, fs.Arg(0))
	}
	if *write {
		return writeLibrary(*from, *out, stdout)
	}
	lib, err := librarydata.Library()
	if err != nil {
		return err
	}
	return listLibrary(lib, stdout)
}

// listLibrary writes one line a server: identity, items, requests,
// separated by tabs.
func listLibrary(lib *library.Library, w io.Writer) error {
	for _, f := range lib.Files() {
		n := 0
		for _, it := range f.Items {
			n += len(it.Requests)
		}
		if _, err := fmt.Fprintf(w, "%s\t%d\t%d\n", f.Identity, len(f.Items), n); err != nil {
			return err
		}
	}
	return nil
}

func writeLibrary(from, out string, stdout io.Writer) error {
	root, err := artifact.FindModule(".", sourceDir)
	if err != nil {
		return err
	}
	dirs := cli.SplitList(from)
	if len(dirs) == 0 {
		return fmt.Errorf("%w: --from: name at least one catalog directory", cli.ErrUsage)
	}
	files, err := requests.LibraryFiles(root, dirs)
	if err != nil {
		return err
	}
	changed, err := requests.WriteLibrary(filepath.Join(root, out), files)
	if err != nil {
		return err
	}
	lib, err := library.New(files)
	if err != nil {
		return err
	}
	items := 0
	for _, f := range files {
		items += len(f.Items)
	}
	_, err = fmt.Fprintf(stdout, "library %s: %s, %d items, %d requests, from %s; %d files written or removed\n",
		lib.Version(), count(len(files), "server"), items, lib.Requests(), strings.Join(dirs, ", "), changed)
	return err
}
