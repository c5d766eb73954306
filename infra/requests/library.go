package requests

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/ext/catalog/library"
)

// LibrarySources are the catalogs the library is generated from, relative
// to the repository's root: the default catalog, the lab's corpus, then
// the public servers crawled for the library (infra/lab/data/public).
var LibrarySources = []string{"functions/search/catalog", "infra/lab/data/corpus/catalog", "infra/lab/data/public/catalog"}

// LibraryDir is where the library's data files live, relative to the
// repository's root (embedded by ext/catalog/library/data).
const LibraryDir = "ext/catalog/library/data/servers"

// LibraryFiles reads the catalogs dirs (relative to root) and returns one
// library file per server that has items with requests, its source the
// catalog file (relative to root), its package and version and its
// licence as the catalog records them (a catalog's SOURCES.md fills in
// the package and licence a file does not record). The servers of one
// package (its binaries) are told apart by their serverInfo.name
// (library.QualifiedIdentity). Two servers of one identity are an error,
// as is a server with requests and no identity.
func LibraryFiles(root string, dirs []string) ([]*library.File, error) {
	files, err := libraryFiles(root, dirs)
	if err != nil {
		return nil, err
	}
	perPackage := map[string]int{}
	for _, f := range files {
		perPackage[f.Identity]++
	}
	seen := map[string]string{}
	for _, f := range files {
		if perPackage[f.Identity] > 1 {
			f.Identity = library.QualifiedIdentity(f.Identity, f.InfoName)
		}
		if prev, dup := seen[f.Identity]; dup {
			return nil, fmt.Errorf("%s: identity %q is %s's too: the library keeps one source a server", f.Source.File, f.Identity, prev)
		}
		seen[f.Identity] = f.Source.File
	}
	return files, nil
}

func libraryFiles(root string, dirs []string) ([]*library.File, error) {
	var files []*library.File
	for _, dir := range dirs {
		cat, err := catalog.LoadDir(filepath.Join(root, dir), nil)
		if err != nil {
			return nil, err
		}
		listed, err := sourcesTable(filepath.Join(root, dir, "SOURCES.md"), filepath.Join(root, dir, "..", "SOURCES.md"))
		if err != nil {
			return nil, err
		}
		items := map[string][]library.Item{}
		for _, it := range cat.Items {
			if len(it.Requests) > 0 {
				items[it.Server] = append(items[it.Server], library.Item{Kind: it.Kind, Name: it.UpstreamName, Description: it.Description, Requests: it.Requests})
			}
		}
		for i := range cat.Servers {
			s := &cat.Servers[i]
			if len(items[s.Name]) == 0 {
				continue
			}
			if row, ok := listed[filepath.Base(s.File)]; ok {
				s.Package, s.License = cmp.Or(s.Package, row.pkg), cmp.Or(s.License, row.license)
			}
			f, err := libraryFile(root, s, items[s.Name])
			if err != nil {
				return nil, err
			}
			files = append(files, f)
		}
	}
	return files, nil
}

func libraryFile(root string, s *catalog.Server, items []library.Item) (*library.File, error) {
	rel, err := filepath.Rel(root, s.File)
	if err != nil {
		return nil, err
	}
	rel = filepath.ToSlash(rel)
	id := library.Identity(s)
	if id == "" {
		return nil, fmt.Errorf("%s: fields package and serverInfo.name: both missing: a server of the library needs an identity", rel)
	}
	version, err := serverVersion(s.File)
	if err != nil {
		return nil, err
	}
	return &library.File{Identity: id, InfoName: s.InfoName,
		Source: library.Source{File: rel, Package: s.Package, Version: version, License: s.License}, Items: items}, nil
}

// sourceRow is what a catalog's SOURCES.md says of one of its files.
type sourceRow struct{ pkg, license string }

// sourcesTable reads the table of a catalog's SOURCES.md whose rows start
// "| file.json | package@version | licence |" (the lab corpus's): the
// package and licence of files that do not record their own. It reads the
// first of paths that exists (the catalog's own, then its parent's, where
// the corpus keeps it); none is an empty table.
func sourcesTable(paths ...string) (map[string]sourceRow, error) {
	var data []byte
	var err error
	for _, path := range paths {
		if data, err = os.ReadFile(path); !errors.Is(err, fs.ErrNotExist) {
			break
		}
	}
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	rows := map[string]sourceRow{}
	for line := range strings.Lines(string(data)) {
		cells := strings.Split(strings.TrimSpace(line), "|")
		if len(cells) < 5 || !strings.HasSuffix(strings.TrimSpace(cells[1]), ".json") {
			continue
		}
		pkg := strings.TrimSpace(cells[2])
		if !strings.Contains(pkg, "@") || strings.ContainsAny(pkg, " `") {
			continue
		}
		rows[strings.TrimSpace(cells[1])] = sourceRow{pkg: pkg, license: strings.TrimSpace(cells[3])}
	}
	return rows, nil
}

// serverVersion is the serverInfo.version of the server file at path.
func serverVersion(path string) (string, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return "", err
	}
	var f struct {
		ServerInfo struct {
			Version string `json:"version"`
		} `json:"serverInfo"`
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return "", fmt.Errorf("%s: field serverInfo: %w", path, err)
	}
	return f.ServerInfo.Version, nil
}

// LibraryFileName is the data file name of a library server: its identity
// with each character outside [A-Za-z0-9._@-] as "+" ("@scope/pkg" →
// "@scope+pkg.json").
func LibraryFileName(identity string) string {
	return strings.Map(func(r rune) rune {
		if r < 128 && (r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || strings.ContainsRune("._@-", r)) {
			return r
		}
		return '+'
	}, identity) + ".json"
}

// EncodeLibraryFile is the data file of f: indented JSON, one key a line,
// ending with a newline.
func EncodeLibraryFile(f *library.File) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// WriteLibrary writes files into dir, one data file each, and removes the
// other *.json files of dir. It returns how many it wrote or changed.
func WriteLibrary(dir string, files []*library.File) (changed int, err error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	want := map[string][]byte{}
	for _, f := range files {
		name := LibraryFileName(f.Identity)
		if _, dup := want[name]; dup {
			return 0, fmt.Errorf("library: two identities give the file name %s (one is %q)", name, f.Identity)
		}
		if want[name], err = EncodeLibraryFile(f); err != nil {
			return 0, err
		}
	}
	old, err := filepath.Glob(filepath.Join(dir, "*.json"))
	if err != nil {
		return 0, err
	}
	for _, path := range old {
		if _, keep := want[filepath.Base(path)]; !keep {
			if err := os.Remove(path); err != nil {
				return 0, err
			}
			changed++
		}
	}
	for name, data := range want {
		path := filepath.Join(dir, name)
		if prev, err := os.ReadFile(path); err == nil && bytes.Equal(prev, data) {
			continue
		}
		if err := os.WriteFile(path, data, 0o644); err != nil {
			return 0, err
		}
		changed++
	}
	return changed, nil
}
