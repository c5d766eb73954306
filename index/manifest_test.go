package index

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// TestManifestPathsStayInTheBundle: a manifest that lists a file outside
// its bundle — by "..", by an absolute path, or by a link in the bundle
// that leads out — is refused by Open and by Verify, even when the file
// it names exists with the size and hash the manifest gives.
func TestManifestPathsStayInTheBundle(t *testing.T) {
	base := t.TempDir()
	dir := filepath.Join(base, "bundle")
	built, err := BuildDir("testdata/catalog", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	outside := filepath.Join(base, "outside.bin")
	if err := os.WriteFile(outside, []byte("a file outside the bundle"), 0o644); err != nil {
		t.Fatal(err)
	}
	sum := sha256Hex(t, outside)
	for _, test := range []struct {
		name, path, want string
		link             bool
	}{
		{"parent", "../outside.bin", "not a path inside the bundle", false},
		{"parent in the middle", "bleve/../../outside.bin", "not a path inside the bundle", false},
		{"absolute", filepath.ToSlash(outside), "not a path inside the bundle", false},
		{"dot", "./manifest.json", "not a path inside the bundle", false},
		{"link leading out", "bleve/outside.bin", "not a regular file", true},
	} {
		t.Run(test.name, func(t *testing.T) {
			m := *built
			m.Files = append(m.Files[:len(m.Files):len(m.Files)], FileInfo{Path: test.path, Size: int64(len("a file outside the bundle")), SHA256: sum})
			writeManifest(t, dir, &m)
			if test.link {
				link := filepath.Join(dir, filepath.FromSlash(test.path))
				if err := os.Symlink(outside, link); err != nil {
					t.Fatal(err)
				}
				defer os.Remove(link)
			}
			if _, err := Verify(dir); err == nil || !strings.Contains(err.Error(), test.want) || !strings.Contains(err.Error(), test.path) {
				t.Errorf("Verify: got %v, want an error naming %s, saying %q", err, test.path, test.want)
			}
			x, err := Open(dir)
			if err == nil {
				x.Close()
			}
			if err == nil || !strings.Contains(err.Error(), test.want) {
				t.Errorf("Open: got %v, want an error saying %q", err, test.want)
			}
		})
	}
}

// TestOpenRefusesOtherBuild: a bundle whose manifest records another
// build identity than this binary's (built before an upgrade, or before
// the identity was recorded) is refused by Open and Verify, saying to
// rebuild: the fields and vectors it wrote came from those tables.
func TestOpenRefusesOtherBuild(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bundle")
	if _, err := BuildDir("testdata/catalog", dir, nil); err != nil {
		t.Fatal(err)
	}
	for _, tables := range []any{"0123456789abcdef", nil} {
		editManifest(t, dir, func(m map[string]any) {
			if tables == nil {
				delete(m, "build")
			} else {
				m["build"] = tables
			}
		})
		_, verr := Verify(dir)
		x, oerr := Open(dir)
		if oerr == nil {
			x.Close()
		}
		for name, err := range map[string]error{"Verify": verr, "Open": oerr} {
			if err == nil || !errors.Is(err, ErrOtherBuild) || !strings.Contains(err.Error(), "rebuild") {
				t.Errorf("%s with tables %v: got %v, want ErrOtherBuild, asking for a rebuild", name, tables, err)
			}
		}
	}
}

// editManifest rewrites the manifest of the bundle at dir through edit.
func editManifest(t *testing.T, dir string, edit func(map[string]any)) {
	t.Helper()
	path := filepath.Join(dir, ManifestFile)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var m map[string]any
	if err := json.Unmarshal(data, &m); err != nil {
		t.Fatal(err)
	}
	edit(m)
	data, _ = json.Marshal(m)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// TestBuildChangesTheIndexVersion: a bundle's index version covers the
// build identity, so new build-time tables give a catalog a new version
// (and a cache of bundles keyed by it a new entry).
func TestBuildChangesTheIndexVersion(t *testing.T) {
	t.Parallel()
	cat, err := catalog.LoadDir("testdata/catalog", nil)
	if err != nil {
		t.Fatal(err)
	}
	m, err := BuildDir("testdata/catalog", filepath.Join(t.TempDir(), "bundle"), nil)
	if err != nil {
		t.Fatal(err)
	}
	if m.IndexVersion != VersionOf(cat) || m.Build != BuildID {
		t.Errorf("got index version %s and build %s, want %s and %s", m.IndexVersion, m.Build, VersionOf(cat), BuildID)
	}
}

// sha256Hex is the SHA-256 of the file at path, in hex.
func sha256Hex(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	return hex.EncodeToString(sum[:])
}
