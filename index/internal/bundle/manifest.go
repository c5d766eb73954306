package bundle

import (
	"cmp"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/index/internal/versions"
)

// FormatVersion is the bundle format this package writes and reads. It is
// part of the index version, so it changes whenever the mapping, the
// analysis or the manifest does.
//
//	1: manifest.json + bleve/ (scorch, zap v16), doc ids "<kind>/<ordinal>".
//	2: fieldLengths in the manifest; identifier splitting and synonym folding.
//	3: WordNet related-words field, stored summaries, CJK bigrams.
//	4: record stores (meta, objects) beside bleve; bleve stores no fields;
//	   names and summaries analysed at build time.
//	5: text fields per kind ("t_name", "p_name", …); no kind field.
//	6: meta records hold name, server and name words only; the no-match
//	   test reads an item's terms from the postings.
//	7: content field ("r_content"): resource text from resourceContents.
//	8: record stores in blocks with a header: objects 16 a block, each
//	   block a zstd frame; meta uncompressed; nameExact holds the own
//	   name only.
//	9: visibility keyword field ("public", "g:<group>", "s:<scope>") and
//	   the manifest's visibility table (sets and runs per kind).
//	10: vectors.bin: each item's word-vector mean (int8), grouped in lists
//	   around k-means centroids, for the dense score.
//	11: item vectors from the four-bit word table (wordvec.bin version 2);
//	   objects 16 to 128 a block by the objects' total size (the block
//	   size is in the store header, as before).
//	12: gloss field ("t_gloss"): English glosses of an item's Chinese
//	   words (CC-CEDICT), which its vector holds too; docorder.bin: the
//	   catalog position of each bleve document, BM25's tie-break.
//	13: a server's "about" in the manifest: the first sentence of its
//	   serverInfo.description, for the directory of servers.
//	14: the servers out of the manifest, in servers.json, read on first
//	   use (index/serverlist.go).
//	15: requests.bin: the items' written requests, one document each
//	   (package requests), matched per request.
//	16: checksums where files are read: the manifest's SHA-256 of its own
//	   content; a CRC-32C after each block of the record stores, after
//	   docorder.bin, of vectors.bin's and hosted.bin's heads and of each
//	   list or chunk of their rows, of requests.bin's head, of each term's
//	   postings and each chunk of its texts (sections reordered: the head
//	   first); see "Catalogs and bundles" in the README. The visibility
//	   table's fieldLengths: each set's field lengths, so that BM25's
//	   average lengths count what a caller sees.
//	17: the bleve index is one zap segment, bleve/segment.zap, written and
//	   read without scorch (no index_meta.json, no store/root.bolt), its
//	   documents numbered in catalog order (package segmentfile).
//	18: requests.bin 3: an item without written requests has its own text
//	   as requests (name words, title, first sentence), marked in itemOwn
//	   (package requests, own-text).
//	19: requests.bin 4: no table of the items' servers (nothing read it)
//	   nor of each request's item (found by the items' first requests);
//	   each kind's head counts its items with written requests and with
//	   their own text, so that a search of every item reads no request's
//	   length to begin.
const FormatVersion = 19

// BleveVersion is the bleve release that writes and reads bundles; go.mod
// pins it (a test checks), and manifests record it.
const BleveVersion = "v2.5.7"

// ErrOtherBuild is a bundle built with other build-time tables, constants
// or writers than this binary's (BuildID: an older or newer mcpsearch):
// Open and Verify refuse it.
var ErrOtherBuild = errors.New("bundle built with other build-time tables, constants or writers")

// BuildID identifies what a bundle's bytes depend on, of this binary: the
// build-time tables and constants and the writers' code (package
// internal/versions). Bundles record it; Open refuses another.
const BuildID = versions.Build

// QueryID identifies the query-time tables, constants and models of this
// binary (package internal/versions): what a search reads besides the
// bundle. It refuses no bundle; the server reports it ("rules" in its
// capabilities) and logs it, so that two answers to one query over one
// bundle can be told apart by it.
const QueryID = versions.Query

// VersionOf is the index version of a bundle of cat built by this binary:
// the SHA-256 (hex) of the catalog's version at FormatVersion and of the
// build-time knowledge (BuildID), so that new tables, constants or writers
// give every catalog a new version, as a new format does; query-time
// knowledge (QueryID) does not.
func VersionOf(cat *catalog.Catalog) string {
	return versionOf(cat.Version(FormatVersion), BuildID)
}

func versionOf(catalogVersion, build string) string {
	sum := sha256.Sum256([]byte(catalogVersion + "\x00build\x00" + build))
	return hex.EncodeToString(sum[:])
}

// ManifestFile is the name of the manifest in a bundle directory.
const ManifestFile = "manifest.json"

// Manifest describes a bundle.
type Manifest struct {
	Format       int    `json:"format"`
	IndexVersion string `json:"indexVersion"`
	BleveVersion string `json:"bleveVersion"`
	// Build is the identity of the build-time tables, constants and
	// writers the bundle was built with (BuildID): its fields and vectors
	// come from them, so a binary with another refuses the bundle.
	Build     string           `json:"build"`
	BuiltAt   time.Time        `json:"builtAt"`
	Separator string           `json:"separator"`
	Counts    map[ext.Kind]int `json:"counts"`
	// FieldLengths holds, per indexed field, the number of tokens over all
	// documents: BM25 divides it by the document count for the average
	// field length (bleve alone would estimate it from the dictionary size).
	FieldLengths map[string]int `json:"fieldLengths"`
	// Files lists every file of the bundle but the manifest, the list of
	// servers (ServersFile, read on first use: index/serverlist.go) among them.
	Files []FileInfo `json:"files"`
	// CursorKey (hex) signs cursors; it is random per build and shared by
	// every instance serving the bundle.
	CursorKey string `json:"cursorKey"`
	// Visibility says who sees which item; absent when every item is
	// public.
	Visibility *VisibilityTable `json:"visibility,omitempty"`
	// Library is the version of the library of public servers' requests
	// the catalog's items were given before the build (BuildOptions.Library;
	// ext/catalog/library), absent when the build attached none.
	Library string `json:"library,omitempty"`
	// Checksum is the SHA-256 (hex) of the manifest's content: the
	// manifest encoded as compact JSON with Checksum empty (contentSum).
	// Open checks it, so that a damaged byte of the manifest — its
	// versions, counts, field lengths, files, cursor key or visibility —
	// is refused, never read as other figures.
	Checksum string `json:"checksum"`
}

// contentSum is the checksum of m's content (Manifest.Checksum).
func (m *Manifest) contentSum() (string, error) {
	c := *m
	c.Checksum = ""
	data, err := json.Marshal(&c)
	if err != nil {
		return "", err
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:]), nil
}

// Seal records m's checksum in it.
func (m *Manifest) Seal() (err error) {
	m.Checksum, err = m.contentSum()
	return err
}

// FileInfo is one file of the bundle, by slash path relative to the bundle.
type FileInfo struct {
	Path   string `json:"path"`
	Size   int64  `json:"size"`
	SHA256 string `json:"sha256"`
}

// ReadManifest reads and checks the manifest of the bundle at dir.
func ReadManifest(dir string) (*Manifest, error) {
	if _, err := os.Stat(dir); errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("bundle directory %s does not exist", dir)
	}
	data, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if errors.Is(err, os.ErrNotExist) {
		return nil, fmt.Errorf("%s: no %s: not an index bundle (build one with mcpsearch build)", dir, ManifestFile)
	}
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: manifest is not valid JSON: %w", dir, err)
	}
	switch {
	case m.Format != FormatVersion:
		return nil, fmt.Errorf("%s: bundle format %d, this build reads format %d: rebuild the bundle", dir, m.Format, FormatVersion)
	case m.Build != BuildID:
		return nil, fmt.Errorf("%s: %w: built with %s, this binary has %s: rebuild the bundle", dir, ErrOtherBuild, cmp.Or(m.Build, "unrecorded ones"), BuildID)
	}
	if sum, err := m.contentSum(); err != nil || sum != m.Checksum {
		return nil, fmt.Errorf("%s: %s does not have the checksum it records (%s): the manifest is damaged: rebuild or restore the bundle", dir, ManifestFile, cmp.Or(m.Checksum, "none"))
	}
	switch {
	case m.IndexVersion == "":
		return nil, fmt.Errorf("%s: manifest has no indexVersion", dir)
	case len(m.Files) == 0:
		return nil, fmt.Errorf("%s: manifest lists no files", dir)
	case len(m.FieldLengths) == 0:
		return nil, fmt.Errorf("%s: manifest has no fieldLengths", dir)
	}
	for _, f := range m.Files {
		if err := checkBundlePath(f.Path); err != nil {
			return nil, fmt.Errorf("%s: manifest lists %q: %w", dir, f.Path, err)
		}
	}
	return &m, nil
}

// checkBundlePath refuses a manifest path that could name a file outside
// the bundle, or the manifest itself: it must be a slash path relative to
// the bundle, without "." or ".." elements (fs.ValidPath).
func checkBundlePath(path string) error {
	if !fs.ValidPath(path) || path == "." || path == ManifestFile {
		return errors.New("not a path inside the bundle (a slash path under its directory, without . or .. elements)")
	}
	return nil
}

// CheckFiles compares the bundle's files with the manifest: sizes always,
// hashes when full is set (Verify). At open, sizes only: the files are
// checked where they are read, by checksums of their own, but for the
// segment, which zap reads within its mapping (a damaged byte there is a
// wrong answer or a panic recovered into an error, never a fault of the
// process; see "Catalogs and bundles" in the README). Until format 17
// root.bolt, which bolt follows unchecked outside its mapping, was hashed
// at open too. Files the manifest does not list are an error too.
func (m *Manifest) CheckFiles(dir string, full bool) error {
	listed := map[string]bool{}
	for _, f := range m.Files {
		listed[f.Path] = true
		if err := f.check(dir, full); err != nil {
			return err
		}
	}
	return filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, path)
		if !d.IsDir() && rel != ManifestFile && !listed[filepath.ToSlash(rel)] {
			return fmt.Errorf("%s: file %s is not in the manifest", dir, rel)
		}
		return nil
	})
}

// ReadChecked reads the file at path (a slash path in the bundle at dir)
// whole, and checks it by the SHA-256 the manifest records.
func (m *Manifest) ReadChecked(dir, path string) ([]byte, error) {
	data, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(path)))
	if err != nil {
		return nil, err
	}
	for _, f := range m.Files {
		if f.Path != path {
			continue
		}
		if sum := sha256.Sum256(data); hex.EncodeToString(sum[:]) != f.SHA256 {
			return nil, fmt.Errorf("file %s does not have the SHA-256 the manifest records: the file is damaged (mcpsearch verify checks every file's hash)", path)
		}
		return data, nil
	}
	return nil, fmt.Errorf("file %s is not in the manifest", path)
}

func (f FileInfo) check(dir string, full bool) error {
	path := filepath.Join(dir, filepath.FromSlash(f.Path))
	st, err := os.Lstat(path)
	if err != nil {
		return fmt.Errorf("%s: file %s listed in the manifest: %w", dir, f.Path, err)
	}
	if !st.Mode().IsRegular() { // a link could lead out of the bundle
		return fmt.Errorf("%s: file %s listed in the manifest is not a regular file (%s)", dir, f.Path, st.Mode().Type())
	}
	if st.Size() != f.Size {
		return fmt.Errorf("%s: file %s is %d bytes, the manifest says %d (truncated or altered)", dir, f.Path, st.Size(), f.Size)
	}
	if !full {
		return nil
	}
	sum, err := fileSHA256(path)
	if err != nil {
		return err
	}
	if sum != f.SHA256 {
		return fmt.Errorf("%s: file %s has SHA-256 %s, the manifest says %s (altered)", dir, f.Path, sum, f.SHA256)
	}
	return nil
}

func fileSHA256(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", fmt.Errorf("hashing %s: %w", path, err)
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}
