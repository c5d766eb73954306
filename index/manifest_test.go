package index

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
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
	sum, _ := fileSHA256(outside)
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
