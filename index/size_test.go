package index

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// maxRootLines bounds the non-test lines of the index root package: the
// adapters to ext over an open bundle. What grows past it belongs in a
// package of its role under internal/ (issue 34: the format in bundle,
// the filters in retrieval, who sees what in sight).
const maxRootLines = 2000

// TestIndexRootStaysSmall counts the lines of the root package's non-test
// Go files as `ls index/*.go | grep -v _test | xargs wc -l` does (newlines)
// and fails past maxRootLines.
func TestIndexRootStaysSmall(t *testing.T) {
	t.Parallel()
	files, err := filepath.Glob("*.go")
	if err != nil {
		t.Fatal(err)
	}
	total := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		total += bytes.Count(data, []byte("\n"))
	}
	if total > maxRootLines {
		t.Errorf("the index root holds %d non-test lines, more than %d: move what grew into the internal package of its role", total, maxRootLines)
	}
	if total == 0 {
		t.Error("no non-test Go file counted: the test reads the wrong directory")
	}
}
