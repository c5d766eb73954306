package catalog

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext"
)

// DefaultSeparator joins a server name and an item name into a canonical
// name: "gitlab" and "create_merge_request" give
// "gitlab__create_merge_request".
const DefaultSeparator = "__"

// Catalog is a validated set of servers and their items.
type Catalog struct {
	Servers []Server
	Items   []Item // sorted by kind, server and key
	Sep     string // name separator; empty means DefaultSeparator
}

// Server describes one upstream server of a catalog.
type Server struct {
	Name       string          `json:"name"`
	File       string          `json:"-"`
	Package    string          `json:"package,omitempty"`
	License    string          `json:"license,omitempty"`
	Source     json.RawMessage `json:"source,omitempty"` // a URL or {homepage, repository}
	Upstream   json.RawMessage `json:"upstream,omitempty"`
	Visibility json.RawMessage `json:"visibility,omitempty"`
	// About is the first sentence of the description the server gives of
	// itself (serverInfo.description), for the directory of servers.
	About string `json:"about,omitempty"`
	// InfoName is the name the server gives itself (serverInfo.name): with
	// Package, its identity in the library of public servers' requests
	// (ext/catalog/library); never sent to clients.
	InfoName string `json:"-"`
}

// Item is one tool, prompt, resource or resource template.
type Item struct {
	Kind   ext.Kind
	Server string
	// Name is the canonical, collision-free name clients see: server,
	// separator and upstream name for tools and prompts; the URI (or URI
	// template) for resources, which are addressed by URI.
	Name string
	// UpstreamName is the name (or URI) the upstream server knows it by.
	UpstreamName string
	// Label is the object's own "name" as the upstream wrote it: the upstream
	// name of a tool or prompt, the human-readable name of a resource.
	Label string
	// Object is the MCP object as the upstream listed it, with Name in
	// place of its name for tools and prompts.
	Object json.RawMessage
	// Fields parsed from Object, for indexing.
	Title, Description string
	Params             []Param
	Annotations        map[string]any
	URI, MimeType      string
	// Content is the text of a resource, read from the upstream by
	// `mcpsearch crawl --read-resources` (the file's resourceContents).
	Content string
	// Visibility is who sees the item: its own, else its server's.
	Visibility Visibility
	// Requests are what people ask for when they need the item
	// (_meta[MetaRequests], requests.go): evidence for the index, taken
	// out of Object, never sent to clients.
	Requests []string
	// RequestsFrom says where Requests came from: "" for the catalog's
	// own (the server file's), RequestsFromLibrary when the library of
	// public servers' requests attached them at build (library.Attach).
	RequestsFrom string
}

// RequestsFromLibrary is Item.RequestsFrom for requests attached from the
// library of public servers' requests.
const RequestsFromLibrary = "library"

// Param is a tool input property or prompt argument.
type Param struct{ Name, Description string }

// LoadError reports an invalid catalog file, naming the file and, where
// there is one, the item and the field.
type LoadError struct {
	File  string
	Item  string // e.g. `tools[3] "create_issue"`
	Field string
	Err   error
}

func (e *LoadError) Error() string {
	var b strings.Builder
	b.WriteString(e.File)
	if e.Item != "" {
		b.WriteString(": " + e.Item)
	}
	if e.Field != "" {
		b.WriteString(": field " + e.Field)
	}
	b.WriteString(": " + e.Err.Error())
	return b.String()
}

func (e *LoadError) Unwrap() error { return e.Err }

// LoadOptions configure LoadDir. A nil *LoadOptions means the defaults.
type LoadOptions struct {
	// Separator joins server and item names. If empty, DefaultSeparator.
	Separator string
}

// LoadDir reads every *.json file of dir as one server's catalog, validates
// it and returns the catalog. Other files (a SOURCES.md, say) are ignored.
// The first problem found is returned as a *LoadError.
func LoadDir(dir string, opts *LoadOptions) (*Catalog, error) {
	if _, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("reading catalog: %w", err)
	}
	return LoadFS(os.DirFS(dir), dir, opts)
}

// LoadFS is LoadDir on the root of fsys; errors name files under label.
func LoadFS(fsys fs.FS, label string, opts *LoadOptions) (*Catalog, error) {
	sep, err := separatorOf(opts)
	if err != nil {
		return nil, err
	}
	files, err := fs.Glob(fsys, "*.json")
	if err != nil {
		return nil, fmt.Errorf("listing catalog %s: %w", label, err)
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("catalog %s holds no *.json files", label)
	}
	slices.Sort(files)
	cat := &Catalog{Sep: sep}
	for _, name := range files {
		srv, items, err := loadFile(fsys, name, filepath.Join(label, name), sep)
		if err != nil {
			return nil, err
		}
		cat.Servers = append(cat.Servers, srv)
		cat.Items = append(cat.Items, items...)
	}
	return cat, cat.finish()
}

// CheckServerFile checks the server file data (named file in errors) as
// LoadFS checks each of its files, by the same rules and with its names
// unique, but without the other files of its catalog: the crawler runs it
// before writing a file, so that an upstream's answer that would not build
// fails the crawl of that server.
func CheckServerFile(file string, data []byte, opts *LoadOptions) error {
	sep, err := separatorOf(opts)
	if err != nil {
		return err
	}
	if err := checkFileSize(int64(len(data))); err != nil {
		return &LoadError{File: file, Err: err}
	}
	srv, items, err := parseServerFile(file, data, sep)
	if err != nil {
		return err
	}
	cat := &Catalog{Servers: []Server{srv}, Items: items, Sep: sep}
	return cat.finish()
}

func separatorOf(opts *LoadOptions) (string, error) {
	sep := DefaultSeparator
	if opts != nil && opts.Separator != "" {
		sep = opts.Separator
	}
	if !separatorRE().MatchString(sep) {
		return "", fmt.Errorf("name separator %q: want 1 to 8 of the characters _ - . / : (the default __ suits every client)", sep)
	}
	return sep, nil
}

// loadFile reads and parses the server file name of fsys. A file that is
// not a regular file (a device, a named pipe, a directory) is refused
// before it is opened, since opening a named pipe blocks; a symbolic link
// is followed and judged by what it names. One over MaxFileBytes is refused
// before it is read, and the read itself stops one byte past the limit, so
// a size the file system misreports (/dev/zero says 0) cannot matter.
func loadFile(fsys fs.FS, name, file, sep string) (Server, []Item, error) {
	data, err := readServerFile(fsys, name)
	if err != nil {
		return Server{}, nil, &LoadError{File: file, Err: err}
	}
	return parseServerFile(file, data, sep)
}

func readServerFile(fsys fs.FS, name string) ([]byte, error) {
	st, err := fs.Stat(fsys, name)
	if err != nil {
		return nil, err
	}
	if err := checkRegular(st); err != nil {
		return nil, err
	}
	f, err := fsys.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if st, err = f.Stat(); err != nil { // the file opened may not be the one named at first
		return nil, err
	}
	if err := checkRegular(st); err != nil {
		return nil, err
	}
	data, err := io.ReadAll(io.LimitReader(f, MaxFileBytes+1))
	if err != nil {
		return nil, err
	}
	if len(data) > MaxFileBytes {
		return nil, fmt.Errorf("the file is over the limit of %s for one server (it said %d bytes; reading stopped past the limit)", bytesLabel(MaxFileBytes), st.Size())
	}
	return data, nil
}

// checkRegular refuses what is not a regular file, and one whose reported
// size is over the limit.
func checkRegular(st fs.FileInfo) error {
	if !st.Mode().IsRegular() {
		return fmt.Errorf("not a regular file (%s): a server file must be one", fileType(st.Mode()))
	}
	return checkFileSize(st.Size())
}

func fileType(m fs.FileMode) string {
	switch {
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "mode " + m.String()
}

// finish sorts the items and checks that canonical names are unique.
func (c *Catalog) finish() error {
	seenServer := map[string]string{}
	for _, s := range c.Servers {
		if prev, dup := seenServer[s.Name]; dup {
			return &LoadError{File: s.File, Field: "server", Err: fmt.Errorf("server %q is already defined by %s", s.Name, prev)}
		}
		seenServer[s.Name] = s.File
	}
	slices.SortStableFunc(c.Items, compareItems)
	for i := 1; i < len(c.Items); i++ {
		a, b := c.Items[i-1], c.Items[i]
		if a.Kind == b.Kind && a.key() == b.key() {
			return &LoadError{File: seenServer[b.Server], Item: fmt.Sprintf("%s %q", b.Kind, b.UpstreamName),
				Field: b.nameField(), Err: fmt.Errorf("duplicate canonical name %q (also %s %q of server %q)", b.Name, a.Kind, a.UpstreamName, a.Server)}
		}
	}
	return nil
}

// key is what must be unique among items of one kind: the canonical name
// for tools and prompts, server and URI for resources and templates.
func (it *Item) key() string {
	if it.Kind == ext.KindTool || it.Kind == ext.KindPrompt {
		return it.Name
	}
	return it.Server + "\x00" + it.Name
}

func (it *Item) nameField() string {
	switch it.Kind {
	case ext.KindResource:
		return "uri"
	case ext.KindResourceTemplate:
		return "uriTemplate"
	}
	return "name"
}

func compareItems(a, b Item) int {
	if c := slices.Index(ext.Kinds, a.Kind) - slices.Index(ext.Kinds, b.Kind); c != 0 {
		return c
	}
	return strings.Compare(a.key(), b.key())
}

// Count returns the number of items of kind k.
func (c *Catalog) Count(k ext.Kind) int {
	n := 0
	for i := range c.Items {
		if c.Items[i].Kind == k {
			n++
		}
	}
	return n
}
