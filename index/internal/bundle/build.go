package bundle

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/blevesearch/bleve/v2/mapping"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/index/internal/requests"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
	"github.com/mcpsearch/mcpsearch/index/internal/store"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
	"github.com/mcpsearch/mcpsearch/index/internal/vectors"
)

// BuildOptions configure Build. A nil *BuildOptions means the defaults.
type BuildOptions struct {
	// Now stamps the manifest. If nil, time.Now.
	Now func() time.Time
	// Hosted, if set, embeds every item with a hosted model into
	// hosted.bin, beside the word vectors (this package's hosted.go); its failure fails
	// the build, which then leaves no bundle.
	Hosted *HostedItems
	// Context bounds the hosted embedding. If nil, context.Background.
	Context context.Context
	// Library is the version of the library of public servers' requests
	// attached to the catalog before the build (ext/catalog/library), ""
	// if none was: the manifest records it (Manifest.Library).
	Library string
}

// Build writes the bundle of cat to dir. The bundle is built in a folder
// of the build's own beside dir (.mcpsearch-build-*, see workdir.go) and
// renamed into place once complete, so a failed or interrupted build never
// leaves a bundle that opens; a previous bundle at dir stays until the new
// one replaces it. Build removes the folders that killed builds left beside
// dir, never one a running build holds. dir must be absent, empty, or a
// bundle.
func Build(cat *catalog.Catalog, dir string, opts *BuildOptions) (m *Manifest, err error) {
	defer wrapf(&err, "building index %s", dir)
	if err := checkNotEmpty(cat); err != nil {
		return nil, err
	}
	if err := checkReplaceable(dir); err != nil {
		return nil, err
	}
	parent := filepath.Dir(filepath.Clean(dir))
	if err := os.MkdirAll(parent, 0o755); err != nil {
		return nil, err
	}
	work, err := newWorkDir(parent)
	if err != nil {
		return nil, err
	}
	defer func() { err = errors.Join(err, work.remove()) }()
	if m, err = writeBundle(cat, work.bundle(), opts); err != nil {
		return nil, err
	}
	return m, replaceDir(work.bundle(), dir, work.old())
}

// BuildDir loads the catalog at catalogDir and builds its bundle at dir.
func BuildDir(catalogDir, dir string, opts *BuildOptions) (*Manifest, error) {
	cat, err := catalog.LoadDir(catalogDir, nil)
	if err != nil {
		return nil, err
	}
	return Build(cat, dir, opts)
}

// checkNotEmpty refuses a catalog without items, naming it and its
// servers: a bundle needs at least one document (bleve writes no segment of
// none), and a catalog whose servers all answered nothing (as a crawl of
// servers that list nothing writes) is a mistake to report, not an index
// to serve. A catalog with items of some kinds only builds.
func checkNotEmpty(cat *catalog.Catalog) error {
	if len(cat.Items) > 0 {
		return nil
	}
	names := make([]string, 0, maxEmptyServers+1)
	for i, s := range cat.Servers {
		if i == maxEmptyServers {
			names = append(names, fmt.Sprintf("and %d more", len(cat.Servers)-i))
			break
		}
		names = append(names, s.Name)
	}
	servers := "no server"
	switch {
	case len(cat.Servers) == 1:
		servers = "server " + names[0]
	case len(cat.Servers) > 1:
		servers = "servers " + strings.Join(names, ", ")
	}
	return fmt.Errorf("%s (%s) lists no tools, prompts, resources or resource templates: there is nothing to index", catalogLabel(cat), servers)
}

// maxEmptyServers is how many servers the error of an empty catalog names
// before it counts the rest.
const maxEmptyServers = 5

// catalogLabel names a catalog by the directory of its server files, when
// they share one.
func catalogLabel(cat *catalog.Catalog) string {
	if len(cat.Servers) == 0 || cat.Servers[0].File == "" {
		return "the catalog"
	}
	dir := filepath.Dir(cat.Servers[0].File)
	for _, s := range cat.Servers[1:] {
		if filepath.Dir(s.File) != dir {
			return "the catalog"
		}
	}
	return "catalog " + dir
}

func checkReplaceable(dir string) error {
	entries, err := os.ReadDir(dir)
	if errors.Is(err, fs.ErrNotExist) || (err == nil && len(entries) == 0) {
		return nil
	}
	if err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(dir, ManifestFile)); err != nil {
		return fmt.Errorf("refusing to replace %s: it is not empty and not an index bundle", dir)
	}
	return nil
}

// writeBundle writes the bleve index, the record stores, the vectors and
// the list of servers, and then the manifest, into dir.
func writeBundle(cat *catalog.Catalog, dir string, opts *BuildOptions) (*Manifest, error) {
	if _, err := text.Analyzer(); err != nil {
		return nil, err
	}
	hosted, err := embedHosted(cat, opts) // first: the slowest step, and the likeliest to fail
	if err != nil {
		return nil, err
	}
	lengths, err := writeIndex(cat, dir)
	if err != nil {
		return nil, err
	}
	positions, err := writeDocOrder(dir, KindBases(itemCounts(cat)), len(cat.Items))
	if err != nil {
		return nil, err
	}
	if err := requests.Write(dir, cat.Items, documentsOf(positions)); err != nil {
		return nil, err
	}
	if err := writeStores(cat, dir); err != nil {
		return nil, err
	}
	if err := vectors.Write(dir, cat.Items); err != nil {
		return nil, err
	}
	if err := hosted.write(dir, cat); err != nil {
		return nil, err
	}

	if err := writeServers(cat, dir); err != nil {
		return nil, err
	}
	if err := chmodTree(dir); err != nil {
		return nil, err
	}
	m, err := newManifest(cat, dir, opts)
	if err != nil {
		return nil, err
	}
	m.FieldLengths = lengths.all
	if m.Visibility != nil {
		for _, set := range m.Visibility.Sets {
			m.Visibility.FieldLengths = append(m.Visibility.FieldLengths, lengths.bySet[visibilityKey(set)])
		}
	}
	if err := m.Seal(); err != nil {
		return nil, err
	}
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	return m, os.WriteFile(filepath.Join(dir, ManifestFile), append(data, '\n'), 0o644)
}

// fieldLengths are the number of tokens of each indexed field over every
// document, and over the documents of each visibility (by visibilityKey).
type fieldLengths struct {
	all   map[string]int
	bySet map[string]map[string]int
}

// add counts the fields of doc, an item's of visibility key.
func (l *fieldLengths) add(key string, doc map[string]any) {
	own := map[string]int{}
	addFieldLengths(own, doc)
	set := l.bySet[key]
	if set == nil {
		set = newFieldLengths()
		l.bySet[key] = set
	}
	for f, n := range own {
		l.all[f] += n
		set[f] += n
	}
}

// newFieldLengths starts counting: every field has an entry, which bleve
// requires.
func newFieldLengths() map[string]int {
	lengths := map[string]int{}
	for _, f := range indexedFields() {
		lengths[f] = 0
	}
	return lengths
}

func writeIndex(cat *catalog.Catalog, dir string) (*fieldLengths, error) {
	im, err := newMapping()
	if err != nil {
		return nil, err
	}
	b, err := newSegmentBuilder(dir, im)
	if err != nil {
		return nil, err
	}
	lengths := &fieldLengths{all: newFieldLengths(), bySet: map[string]map[string]int{}}
	err = EachDocument(cat, func(it *catalog.Item, id string, doc map[string]any) error {
		if err := b.index(id, doc); err != nil {
			return fmt.Errorf("indexing %s %q: %w", it.Kind, it.Name, err)
		}
		lengths.add(visibilityKey(it.Visibility), doc)
		return nil
	})
	if err != nil {
		b.abort()
		return nil, err
	}
	return lengths, b.close()
}

// EachDocument calls fn with each item of cat, in catalog order, its
// document's id and what the segment indexes for it (the build, and the
// tests that compare with bleve's own engine on the same documents).
func EachDocument(cat *catalog.Catalog, fn func(it *catalog.Item, id string, doc map[string]any) error) error {
	ordinal := map[ext.Kind]int{}
	for i := range cat.Items {
		it := &cat.Items[i]
		if err := fn(it, schema.DocID(it.Kind, ordinal[it.Kind]), document(it)); err != nil {
			return err
		}
		ordinal[it.Kind]++
	}
	return nil
}

// Mapping is the bleve mapping of a bundle's documents (newMapping).
func Mapping() (*mapping.IndexMappingImpl, error) { return newMapping() }

func chmodTree(dir string) error {
	return filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		mode := fs.FileMode(0o644)
		if d.IsDir() {
			mode = 0o755
		}
		return os.Chmod(path, mode)
	})
}

func newManifest(cat *catalog.Catalog, dir string, opts *BuildOptions) (*Manifest, error) {
	now := time.Now
	if opts != nil && opts.Now != nil {
		now = opts.Now
	}
	key := make([]byte, 32)
	rand.Read(key)
	m := &Manifest{
		Format: FormatVersion, IndexVersion: VersionOf(cat), BleveVersion: BleveVersion, Build: BuildID,
		BuiltAt: now().UTC().Truncate(time.Second), Separator: cat.Separator(), Counts: itemCounts(cat),
		CursorKey: hex.EncodeToString(key), Visibility: visibilityTable(cat),
	}
	if opts != nil {
		m.Library = opts.Library
	}
	files, err := listFiles(dir)
	m.Files = files
	return m, err
}

func listFiles(dir string) ([]FileInfo, error) {
	var files []FileInfo
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() || path == filepath.Join(dir, ManifestFile) {
			return err
		}
		st, err := d.Info()
		if err != nil {
			return err
		}
		sum, err := fileSHA256(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		files = append(files, FileInfo{Path: filepath.ToSlash(rel), Size: st.Size(), SHA256: sum})
		return nil
	})
	return files, err
}

// replaceDir moves the finished bundle tmp to dir, moving a previous
// bundle there to old first (the caller removes it).
func replaceDir(tmp, dir, old string) error {
	_, err := os.Stat(dir)
	hadBundle := err == nil
	if hadBundle {
		if err := os.Rename(dir, old); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		if hadBundle {
			os.Rename(old, dir)
		}
		return err
	}
	return nil
}

func wrapf(errp *error, format string, args ...any) {
	if *errp != nil {
		*errp = fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), *errp)
	}
}

// writeStores writes the record stores of cat's items into dir: each
// item's meta record (its name words analysed now) and its object.
func writeStores(cat *catalog.Catalog, dir string) error {
	metas := make([]store.Meta, len(cat.Items))
	objects := make([][]byte, len(cat.Items))
	for i := range cat.Items {
		it := &cat.Items[i]
		metas[i] = store.Meta{Label: it.Label, Server: it.Server, Words: strings.Join(text.Analyze(normal(it.Label)), " ")}
		objects[i] = it.Object
	}
	return store.Write(dir, metas, objects)
}
