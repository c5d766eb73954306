// Package library is the library of what is known about public MCP
// servers: the requests people make for their items (the written
// requests, _meta["io.github.mcpsearch/requests"]), keyed by the server's
// identity rather than by the name a team gives the server, so that a team
// that crawls a public server itself gets the requests written for it.
//
// The contract:
//
//   - A server's identity is its package without the version
//     ("airtable-mcp-server@1.14.0" → "airtable-mcp-server", "@scope/pkg@2"
//     → "@scope/pkg"), else the name it gives itself (serverInfo.name).
//     The server's key in a catalog (the team's choice) never identifies it.
//     The servers of one package (its binaries) are "package (serverInfo.name)".
//     A catalog server is looked up by its package's identity first, then
//     by its serverInfo.name; a serverInfo.name two library servers share
//     identifies neither.
//   - Within the server so found, and only there, an item is matched by its
//     kind and its upstream name; an item whose name the library does not
//     know (a newer version renamed it) is matched by its description
//     (Similar): only to a library item of the same kind whose name no item
//     of the catalog's server carries any more, only when one library item
//     is the single best match, and each library item to one item at most.
//     Nothing is ever borrowed from another server.
//   - Attach gives library requests only to items that carry none: a team's
//     own requests win. Attached items say so (Item.RequestsFrom).
//   - The library's content has a version (Library.Version): a bundle built
//     with it records it, and a cached local bundle is keyed by it.
//
// The library's data is one JSON file per server (File), generated from the
// default catalog and the lab's corpus by `mcpsearch requests library
// --write` and embedded by ext/catalog/library/data, which only the command
// line and the local server import: the Lambda function (built with the
// nocatalog tag) links this package's logic but not the data.
package library

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io/fs"
	"slices"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// File is the data file of one server of the library.
type File struct {
	// Identity is the server's identity (Identity).
	Identity string `json:"identity"`
	// InfoName is the name the server gave itself (serverInfo.name), by
	// which a crawl that records no package finds it.
	InfoName string `json:"serverInfo,omitempty"`
	// Source is where the requests were written.
	Source Source `json:"source"`
	Items  []Item `json:"items"`
}

// Source is the catalog file a library server's requests come from.
type Source struct {
	// File is the catalog file, relative to the repository's root.
	File string `json:"file"`
	// Package is the package and version the catalog lists ("" if none);
	// Version the version the server gave of itself (serverInfo.version).
	Package string `json:"package,omitempty"`
	Version string `json:"version,omitempty"`
	// License is the server's licence as the catalog records it.
	License string `json:"license,omitempty"`
}

// Item is one item of a library server and its requests.
type Item struct {
	Kind        ext.Kind `json:"kind"`
	Name        string   `json:"name"` // the upstream name (a resource's URI)
	Description string   `json:"description,omitempty"`
	Requests    []string `json:"requests"`
}

// Library is a set of library servers, looked up by identity.
type Library struct {
	files    []*File // sorted by identity
	byID     map[string]*File
	byInfo   map[string][]*File
	version  string
	requests int
}

// Identity is the identity of the catalog server s: its package without
// the version, else its serverInfo.name; "" if it has neither.
func Identity(s *catalog.Server) string {
	if p := PackageName(s.Package); p != "" {
		return p
	}
	return s.InfoName
}

// PackageName is a package reference without its version:
// "name@1.2.3" → "name", "@scope/name@1.2.3" → "@scope/name", "name" →
// "name".
func PackageName(pkg string) string {
	pkg = strings.TrimSpace(pkg)
	if i := strings.LastIndex(pkg, "@"); i > 0 {
		return pkg[:i]
	}
	return pkg
}

// QualifiedIdentity is the identity of one of the servers a package holds
// (its binaries: freee-mcp's freee and freee-sign): "package (infoName)".
func QualifiedIdentity(pkg, infoName string) string { return pkg + " (" + infoName + ")" }

// New returns the library of files. Two files of one identity are an
// error.
func New(files []*File) (*Library, error) {
	l := &Library{byID: map[string]*File{}, byInfo: map[string][]*File{}}
	h := sha256.New()
	sorted := slices.Clone(files)
	slices.SortFunc(sorted, func(a, b *File) int { return strings.Compare(a.Identity, b.Identity) })
	for _, f := range sorted {
		if f.Identity == "" {
			return nil, fmt.Errorf("library server from %s: field identity: missing", f.Source.File)
		}
		if prev, dup := l.byID[f.Identity]; dup {
			return nil, fmt.Errorf("library server %q: both %s and %s", f.Identity, prev.Source.File, f.Source.File)
		}
		l.byID[f.Identity] = f
		if f.InfoName != "" {
			l.byInfo[f.InfoName] = append(l.byInfo[f.InfoName], f)
		}
		data, err := json.Marshal(f)
		if err != nil {
			return nil, err
		}
		fmt.Fprintf(h, "%d\x00", len(data))
		h.Write(data)
		for _, it := range f.Items {
			l.requests += len(it.Requests)
		}
	}
	l.files = sorted
	l.version = hex.EncodeToString(h.Sum(nil))[:16]
	return l, nil
}

// Load reads every *.json file of fsys as a File.
func Load(fsys fs.FS, label string) (*Library, error) {
	names, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, fmt.Errorf("listing library %s: %w", label, err)
	}
	var files []*File
	for _, name := range names {
		f, err := readFile(fsys, name)
		if err != nil {
			return nil, fmt.Errorf("library %s/%s: %w", label, name, err)
		}
		files = append(files, f)
	}
	return New(files)
}

func readFile(fsys fs.FS, name string) (*File, error) {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return nil, err
	}
	f := new(File)
	if err := json.Unmarshal(data, f); err != nil {
		return nil, err
	}
	for i, it := range f.Items {
		if !slices.Contains(ext.Kinds, it.Kind) {
			return nil, fmt.Errorf("items[%d]: field kind: %q is not a kind of item", i, it.Kind)
		}
		if it.Name == "" {
			return nil, fmt.Errorf("items[%d]: field name: missing", i)
		}
		if len(it.Requests) == 0 || len(it.Requests) > catalog.MaxRequestsPerItem {
			return nil, fmt.Errorf("items[%d] %q: field requests: %d requests, want 1 to %d", i, it.Name, len(it.Requests), catalog.MaxRequestsPerItem)
		}
	}
	return f, nil
}

// Version is a digest of the library's content (16 hex digits): any
// change of a server, an item or a request changes it.
func (l *Library) Version() string { return l.version }

// CacheKey is the 16 hex digits that name a locally cached bundle of a
// catalog of index version indexVersion with the library of version
// libraryVersion attached ("" when none was): the local server and
// mcpsearch search name their cached bundles so, and each reuses the
// other's.
func CacheKey(indexVersion, libraryVersion string) string {
	if libraryVersion == "" {
		return indexVersion[:16]
	}
	sum := sha256.Sum256([]byte(indexVersion + "\x00library\x00" + libraryVersion))
	return hex.EncodeToString(sum[:])[:16]
}

// Files are the library's servers, sorted by identity.
func (l *Library) Files() []*File { return l.files }

// Requests is the number of requests of the library.
func (l *Library) Requests() int { return l.requests }

// Lookup returns the library server of the catalog server s, or nil: by
// its package's identity, else, when the operator named no package, by
// its serverInfo.name when one library server alone has that name. A
// package the library does not know is not looked up by the name the
// upstream gives itself: that name cannot claim a public server's
// requests for a server the operator identified otherwise.
func (l *Library) Lookup(s *catalog.Server) *File {
	if p := PackageName(s.Package); p != "" {
		if f := l.byID[p]; f != nil {
			return f
		}
		if f := l.byID[QualifiedIdentity(p, s.InfoName)]; f != nil && s.InfoName != "" {
			return f
		}
		return nil
	}
	if s.InfoName == "" {
		return nil
	}
	if fs := l.byInfo[s.InfoName]; len(fs) == 1 {
		return fs[0]
	}
	return nil
}
