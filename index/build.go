package index

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/blevesearch/bleve/v2"

	"github.com/mcpsearch/mcpsearch/ext"
)

// BuildOptions configure Build. A nil *BuildOptions means the defaults.
type BuildOptions struct {
	// Now stamps the manifest. If nil, time.Now.
	Now func() time.Time
}

// Build writes the bundle of cat to dir. The bundle is built in a folder
// of the build's own beside dir (.mcpsearch-build-*, see workdir.go) and
// renamed into place once complete, so a failed or interrupted build never
// leaves a bundle that opens; a previous bundle at dir stays until the new
// one replaces it. Build removes the folders that killed builds left beside
// dir, never one a running build holds. dir must be absent, empty, or a
// bundle.
func Build(cat *Catalog, dir string, opts *BuildOptions) (m *Manifest, err error) {
	defer wrapf(&err, "building index %s", dir)
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
	cat, err := LoadDir(catalogDir, nil)
	if err != nil {
		return nil, err
	}
	return Build(cat, dir, opts)
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

// writeBundle writes the bleve index and then the manifest into dir.
func writeBundle(cat *Catalog, dir string, opts *BuildOptions) (*Manifest, error) {
	lengths, err := writeIndex(cat, filepath.Join(dir, "bleve"))
	if err != nil {
		return nil, err
	}
	if err := writeDocOrder(filepath.Join(dir, "bleve"), dir, kindBases(itemCounts(cat)), len(cat.Items)); err != nil {
		return nil, err
	}
	if err := writeStores(cat, dir); err != nil {
		return nil, err
	}
	if err := writeVectors(cat, dir); err != nil {
		return nil, err
	}
	if err := chmodTree(dir); err != nil {
		return nil, err
	}
	m, err := newManifest(cat, dir, opts)
	if err != nil {
		return nil, err
	}
	m.FieldLengths = lengths
	data, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return nil, err
	}
	return m, os.WriteFile(filepath.Join(dir, ManifestFile), append(data, '\n'), 0o644)
}

func writeIndex(cat *Catalog, path string) (map[string]int, error) {
	im, err := newMapping()
	if err != nil {
		return nil, err
	}
	b, err := bleve.NewBuilder(path, im, nil)
	if err != nil {
		return nil, err
	}
	ordinal := map[ext.Kind]int{}
	lengths := map[string]int{} // every field has an entry: bleve requires one
	for _, f := range indexedFields() {
		lengths[f] = 0
	}
	for i := range cat.Items {
		it := &cat.Items[i]
		doc := document(it)
		if err := b.Index(docID(it.Kind, ordinal[it.Kind]), doc); err != nil {
			b.Close()
			return nil, fmt.Errorf("indexing %s %q: %w", it.Kind, it.Name, err)
		}
		addFieldLengths(lengths, doc)
		ordinal[it.Kind]++
	}
	return lengths, b.Close()
}

// addFieldLengths adds the token counts of doc's indexed fields to lengths.
func addFieldLengths(lengths map[string]int, doc map[string]any) {
	for field, v := range doc {
		var values []string
		switch v := v.(type) {
		case string:
			values = []string{v}
		case []string:
			values = v
		}
		for _, val := range values {
			if isKeywordField(field) {
				lengths[field]++
			} else {
				lengths[field] += len(textAnalyzer.Analyze([]byte(val)))
			}
		}
	}
}

// docID is the id of the n-th item (from 0) of kind k in catalog order.
func docID(k ext.Kind, n int) string {
	return fmt.Sprintf("%s/%08d", kindCode[k], n)
}

var kindCode = map[ext.Kind]string{
	ext.KindTool: "t", ext.KindPrompt: "p", ext.KindResource: "r", ext.KindResourceTemplate: "u",
}

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

func newManifest(cat *Catalog, dir string, opts *BuildOptions) (*Manifest, error) {
	now := time.Now
	if opts != nil && opts.Now != nil {
		now = opts.Now
	}
	key := make([]byte, 32)
	rand.Read(key)
	m := &Manifest{
		Format: FormatVersion, IndexVersion: cat.Version(), BleveVersion: BleveVersion,
		BuiltAt: now().UTC().Truncate(time.Second), Separator: cat.separator(), Counts: itemCounts(cat),
		CursorKey: hex.EncodeToString(key), Visibility: visibilityTable(cat),
	}
	perServer := map[string]map[ext.Kind]int{}
	for _, it := range cat.Items {
		if perServer[it.Server] == nil {
			perServer[it.Server] = map[ext.Kind]int{}
		}
		perServer[it.Server][it.Kind]++
	}
	for _, s := range cat.Servers {
		m.Servers = append(m.Servers, ServerInfo{Server: s, Counts: perServer[s.Name]})
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

// Version is the index version of the catalog: the SHA-256 (hex) of the
// bundle format and the canonical catalog (servers and items in their sorted
// order, objects as compact JSON).
func (c *Catalog) Version() string {
	h := sha256.New()
	fmt.Fprintf(h, "mcpsearch bundle format %d\x00%s\x00", FormatVersion, c.separator())
	for _, s := range c.Servers {
		fmt.Fprintf(h, "server\x00%s\x00%s\x00%s\x00%s\x00%s\x00%s\x00%s\x00", s.Name, s.Package, s.License, s.Source, s.Upstream, s.Visibility, s.About)
	}
	for _, it := range c.Items {
		fmt.Fprintf(h, "item\x00%s\x00%s\x00%s\x00%d\x00", it.Kind, it.Server, it.Name, len(it.Object))
		h.Write(it.Object)
		if !it.Visibility.Public() {
			fmt.Fprintf(h, "visibility\x00%q\x00%q\x00", it.Visibility.Groups, it.Visibility.Scopes)
		}
		if it.Content != "" {
			fmt.Fprintf(h, "content\x00%d\x00%s", len(it.Content), it.Content)
		}
	}
	return hex.EncodeToString(h.Sum(nil))
}

func (c *Catalog) separator() string {
	if c.Sep == "" {
		return DefaultSeparator
	}
	return c.Sep
}

func wrapf(errp *error, format string, args ...any) {
	if *errp != nil {
		*errp = fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), *errp)
	}
}

// document is what bleve indexes for an item: its text fields under the
// names of its kind.
func document(it *Item) map[string]any {
	field := func(f string) string { return kindField(it.Kind, f) }
	doc := map[string]any{
		fieldServer:             it.Server,
		fieldVisibility:         it.Visibility.terms(),
		field(fieldServerWords): it.Server,
		field(fieldName):        it.Label,
		field(fieldNameExact):   normalizeName(it.Label),
		field(fieldTitle):       it.Title,
		field(fieldDescription): it.Description,
		field(fieldRelated):     relatedWords(it),
		field(fieldGloss):       itemGloss(it),
	}
	if len(it.Params) > 0 {
		params := make([]string, 0, 2*len(it.Params))
		for _, p := range it.Params {
			params = append(params, p.Name, p.Description)
		}
		doc[field(fieldParams)] = params
	}
	if it.URI != "" || it.MimeType != "" {
		doc[field(fieldURI)] = []string{it.URI, it.MimeType}
	}
	if it.Content != "" {
		doc[field(fieldContent)] = it.Content
	}
	if len(it.Annotations) > 0 {
		doc[fieldAnnotations] = annotationTerms(it.Annotations)
	}
	return doc
}

// itemGloss is the English gloss of the Chinese words of an item's name,
// title, description and parameters.
func itemGloss(it *Item) string {
	parts := []string{it.Label, it.Title, it.Description}
	for _, p := range it.Params {
		parts = append(parts, p.Name, p.Description)
	}
	return glossChinese(strings.Join(parts, "\n"))
}

// relatedWords are the WordNet synonyms of an item's name, title and
// description.
func relatedWords(it *Item) string {
	return expansion(strings.Join(SplitName(it.Label), " ") + "\n" + it.Title + "\n" + it.Description)
}

// annotationTerms renders annotations as keyword terms "key=value", keys and
// values in lower case; only scalar values are indexed.
func annotationTerms(a map[string]any) []string {
	terms := make([]string, 0, len(a))
	for k, v := range a {
		if t, ok := annotationTerm(k, v); ok {
			terms = append(terms, t)
		}
	}
	return terms
}

func annotationTerm(k string, v any) (string, bool) {
	switch v.(type) {
	case bool, string, float64, int:
		return strings.ToLower(fmt.Sprintf("%s=%v", k, v)), true
	}
	return "", false
}

// itemCounts counts the catalog's items of each kind.
func itemCounts(cat *Catalog) map[ext.Kind]int {
	counts := map[ext.Kind]int{}
	for _, it := range cat.Items {
		counts[it.Kind]++
	}
	return counts
}
