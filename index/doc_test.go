package index

import (
	"os"
	"path"
	"regexp"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext/embed/embedtest"
)

// bundleDocLine is a line of the package doc's list of a bundle's files:
// "//	<dir>/NAME   what it holds", NAME a file, a glob (meta.*) or a
// directory (bleve/).
var bundleDocLine = regexp.MustCompile(`(?m)^//\t<dir>/(\S+)`)

// TestPackageDocNamesEveryBundleFile: the package doc (doc.go) lists every
// file and directory a bundle holds, hosted vectors included, and nothing
// a bundle does not hold.
func TestPackageDocNamesEveryBundleFile(t *testing.T) {
	t.Parallel()
	src, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	var listed []string
	for _, m := range bundleDocLine.FindAllStringSubmatch(string(src), -1) {
		listed = append(listed, m[1])
	}
	srv := embedtest.New(t, hostedDims)
	entries, err := os.ReadDir(buildHosted(t, teamCatalog(t), srv))
	if err != nil {
		t.Fatal(err)
	}
	used := map[string]bool{}
	for _, e := range entries {
		name := e.Name()
		if e.IsDir() {
			name += "/"
		}
		pattern, ok := matchingPattern(listed, name)
		if !ok {
			t.Errorf("a bundle holds %s, which doc.go's list of its files does not name (listed: %q)", name, listed)
		}
		used[pattern] = true
	}
	for _, p := range listed {
		if !used[p] {
			t.Errorf("doc.go lists <dir>/%s, which a bundle does not hold", p)
		}
	}
}

// matchingPattern is the first of patterns that name matches.
func matchingPattern(patterns []string, name string) (string, bool) {
	for _, p := range patterns {
		if ok, _ := path.Match(p, name); ok {
			return p, true
		}
	}
	return "", false
}
