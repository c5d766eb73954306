package versions

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"flag"
	"fmt"
	"go/format"
	"go/scanner"
	"go/token"
	"os"
	"path"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

var update = flag.Bool("update", false, "rewrite "+idsFile+" with the identities of the files as they are")

// idsFile is the generated file that holds Build and Query.
const idsFile = "ids.go"

// indexRoot is the index module directory, from this package's.
const indexRoot = "../.."

// buildInputs are the files, relative to index/, that a bundle's bytes
// depend on: the writers (the documents and their fields, the mapping and
// its analyser, the doc order, the vectors, the written requests, the
// hosted vectors), what they read (the synonyms and stop words, the name
// splitting, normalisation, the Chinese glosses, WordNet, the word vectors
// and their SIF weights) and the build-time constants. The layout of the
// files written is FormatVersion's (index/internal/bundle/manifest.go), not this list's.
var buildInputs = []string{
	"internal/bundle/build.go",
	"internal/bundle/docorder.go",
	"internal/bundle/document.go",
	"internal/bundle/mapping.go",
	"internal/hosted/write.go",
	"internal/requests/own.go",
	"internal/requests/write.go",
	"internal/schema/schema.go",
	"internal/text/analyzer.go",
	"internal/text/gloss.go",
	"internal/text/names.go",
	"internal/text/normalize.go",
	"internal/text/synonyms.go",
	"internal/text/synonyms.txt",
	"internal/text/wordnet.go",
	"internal/text/wordnet.txt",
	"internal/text/wordvec.bin",
	"internal/text/wordvec.go",
	"internal/text/zhgloss.txt",
	"internal/text/zhtrad.txt",
	"internal/vectors/constants.go",
	"internal/vectors/sif.go",
	"internal/vectors/write.go",
}

// queryInputs are the files, relative to index/, of what is read at query
// time only: the tables a query is rewritten with (phrases, expansions,
// foreign words and their stop words, Japanese, generic and time words,
// clauses, first words, file paths), the ranking constants and signals,
// the errand, fit and word-kind models.
var queryInputs = []string{
	"internal/errand/errand.go",
	"internal/errand/model.bin",
	"internal/fit/fit.go",
	"internal/fit/model.json",
	"internal/nomatch/constants.go",
	"internal/rank/actions.go",
	"internal/rank/constants.go",
	"internal/rank/destroy.go",
	"internal/rank/query.go",
	"internal/rank/rerank.go",
	"internal/rank/server.go",
	"internal/retrieval/constants.go",
	"internal/text/clauses.go",
	"internal/text/expansions.go",
	"internal/text/firstwords.go",
	"internal/text/foreign.go",
	"internal/text/foreign.txt",
	"internal/text/frames.go",
	"internal/text/frames.txt",
	"internal/text/generic.go",
	"internal/text/japanese.go",
	"internal/text/paths.go",
	"internal/text/phrases.go",
	"internal/text/phrases.txt",
	"internal/text/toolvocab.go",
	"internal/text/toolvocab.txt",
	"internal/text/stopforeign.go",
	"internal/text/timewords.go",
	"internal/wordkind/model.json",
	"internal/wordkind/wordkind.go",
}

// knowledgeDirs are the packages of tables, constants and models: each of
// their files (tests and testdata aside) is in buildInputs, queryInputs or
// unversioned, so that a new table is given an identity.
var knowledgeDirs = []string{"internal/errand", "internal/fit", "internal/rank", "internal/text", "internal/wordkind"}

// unversioned are the files of knowledgeDirs that neither a bundle nor a
// query depends on: package docs and licence notices (the models'
// trainers live in the lab, infra/lab/train; their output is versioned).
var unversioned = []string{
	"internal/rank/doc.go",
	"internal/text/doc.go",
	"internal/text/notices.go",
	"internal/text/wordvec.NOTICE",
	"internal/text/zhgloss.NOTICE",
}

// TestIDs: Build and Query are the identities of their files as they are.
// Run `go generate ./index/internal/versions` after a change.
func TestIDs(t *testing.T) {
	build, query := identities(t, indexRoot)
	if *update {
		writeIDsFile(t, build, query)
		return
	}
	if Build != build || Query != query {
		t.Errorf("ids.go has Build %q and Query %q, the files hash to %q and %q: run go generate ./index/internal/versions", Build, Query, build, query)
	}
}

// TestEveryFileVersioned: every file of the knowledge packages is in one
// list, and every listed file exists (digest fails on a missing one).
func TestEveryFileVersioned(t *testing.T) {
	listed := map[string]int{}
	for _, list := range [][]string{buildInputs, queryInputs, unversioned} {
		for _, name := range list {
			listed[name]++
		}
	}
	for name, n := range listed {
		if n > 1 {
			t.Errorf("%s is in %d lists", name, n)
		}
		if _, err := os.Stat(filepath.Join(indexRoot, name)); err != nil {
			t.Errorf("listed but absent: %v", err)
		}
	}
	for _, dir := range knowledgeDirs {
		entries, err := os.ReadDir(filepath.Join(indexRoot, dir))
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			name := path.Join(dir, e.Name())
			if e.Type().IsRegular() && !strings.HasSuffix(name, "_test.go") && listed[name] == 0 {
				t.Errorf("%s is in no list of ids_test.go: say whether a bundle (buildInputs) or a query (queryInputs) depends on it, or neither (unversioned)", name)
			}
		}
	}
}

// TestBuildConstantChangesBuild: a build-time constant the vector writer
// reads, edited, gives another Build and the same Query.
func TestBuildConstantChangesBuild(t *testing.T) {
	root := copyInputs(t)
	edit(t, root, "internal/vectors/constants.go", "requestVectorWeight = 1.0", "requestVectorWeight = 0.9")
	build, query := identities(t, root)
	if build == Build || query != Query {
		t.Errorf("requestVectorWeight edited: Build %s (was %s), Query %s (was %s); want a new Build and the same Query", build, Build, query, Query)
	}
}

// TestCommentEdits: a comment edited or added, in a query-time table or a
// build-time file, changes neither identity.
func TestCommentEdits(t *testing.T) {
	for _, c := range []struct{ file, old, new string }{
		{"internal/text/phrases.go", "// phraseTable holds", "// A comment added.\n// phraseTable, reviewed, holds"},
		{"internal/text/phrases.txt", "=> create start\n", "=> create start\n"}, // the baseline: no edit
		{"internal/text/phrases.txt", "# Every phrase is under", "# A comment added.\n  # Each phrase is under"},
		{"internal/vectors/constants.go", "// about this many items a list", "// about so many items a list, k-means"},
		{"internal/text/synonyms.go", "// synonymGroups is", "/* a block comment */ // synonymGroups, reviewed, is"},
		{"internal/text/synonyms.txt", "# The reviewed synonym", "# A comment added.\n  # The reviewed synonym"},
	} {
		root := copyInputs(t)
		edit(t, root, c.file, c.old, c.new)
		if build, query := identities(t, root); build != Build || query != Query {
			t.Errorf("comment edited in %s: Build %s (was %s), Query %s (was %s); want both unchanged", c.file, build, Build, query, Query)
		}
	}
}

// TestQueryTableChangesQuery: a phrase added to the phrase table gives
// another Query and the same Build: no bundle is refused for it.
func TestQueryTableChangesQuery(t *testing.T) {
	root := copyInputs(t)
	edit(t, root, "internal/text/phrases.txt", "spin/spun * up => create start\n", "spin/spun * up => create start\nwhip/whipped * up => create\n")
	build, query := identities(t, root)
	if build != Build || query == Query {
		t.Errorf("phrase added: Build %s (was %s), Query %s (was %s); want the same Build and a new Query", build, Build, query, Query)
	}
}

// TestQuarantineChangesQuery: phrases quarantined (their line's "source:"
// TestQuarantineLiftedChangesIdentity: lifting the quarantine of the
// phrases fitted to the fresh set's dev misses (a query-time table) gives
// another Query and the same Build; lifting it from the synonyms fitted to
// them (a build-time table: a bundle's words come from it) another Build.
func TestQuarantineLiftedChangesIdentity(t *testing.T) {
	for _, c := range []struct {
		file               string
		newBuild, newQuery bool
	}{
		{"internal/text/phrases.txt", false, true},
		{"internal/text/synonyms.txt", true, false},
	} {
		root := copyInputs(t)
		file := filepath.Join(root, c.file)
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		lifted := bytes.ReplaceAll(data, []byte("\nquarantined: fitted to the fresh set's dev misses"), []byte("\nsource: fitted to the fresh set's dev misses"))
		if bytes.Equal(lifted, data) {
			t.Fatalf("%s has no line quarantined for fitting the fresh set's dev misses", c.file)
		}
		if err := os.WriteFile(file, lifted, 0o644); err != nil {
			t.Fatal(err)
		}
		build, query := identities(t, root)
		if (build != Build) != c.newBuild || (query != Query) != c.newQuery {
			t.Errorf("%s: quarantine lifted: Build %s (was %s), Query %s (was %s); want a new Build %v, a new Query %v", c.file, build, Build, query, Query, c.newBuild, c.newQuery)
		}
	}
}

// identities are the Build and Query of the files under root, as TestIDs
// computes them.
func identities(t *testing.T, root string) (build, query string) {
	t.Helper()
	build, err := digest(root, buildInputs)
	if err != nil {
		t.Fatal(err)
	}
	query, err = digest(root, queryInputs)
	if err != nil {
		t.Fatal(err)
	}
	return build, query
}

// digest hashes the files of names under root, each by name and content
// (semanticContent), in name order: the first 16 hex digits of the
// SHA-256.
func digest(root string, names []string) (string, error) {
	names = slices.Sorted(slices.Values(names))
	h := sha256.New()
	for _, name := range names {
		data, err := os.ReadFile(filepath.Join(root, name))
		if err != nil {
			return "", err
		}
		content, err := semanticContent(name, data)
		if err != nil {
			return "", err
		}
		fmt.Fprintf(h, "%s\x00%d\x00", name, len(content))
		h.Write(content)
	}
	return hex.EncodeToString(h.Sum(nil))[:16], nil
}

// commentedTables are the data files whose loader skips the lines that
// start with "#" (after spaces): those lines are comments, as a Go
// file's.
var commentedTables = []string{"internal/text/frames.txt", "internal/text/phrases.txt", "internal/text/synonyms.txt"}

// semanticContent is what of a file counts: a Go file's tokens, each with
// its literal, without its comments but //go:embed lines (which say what
// is embedded), automatic semicolons as any; a commented table's lines
// but its comments; another file's bytes.
func semanticContent(name string, data []byte) ([]byte, error) {
	if slices.Contains(commentedTables, name) {
		return withoutCommentLines(data), nil
	}
	if !strings.HasSuffix(name, ".go") {
		return data, nil
	}
	fset := token.NewFileSet()
	var s scanner.Scanner
	var errs []string
	s.Init(fset.AddFile(name, -1, len(data)), data, func(pos token.Position, msg string) {
		errs = append(errs, fmt.Sprintf("%s: %s", pos, msg))
	}, scanner.ScanComments)
	var out bytes.Buffer
	for {
		_, tok, lit := s.Scan()
		switch {
		case tok == token.EOF:
			if errs != nil {
				return nil, fmt.Errorf("%s", strings.Join(errs, "; "))
			}
			return out.Bytes(), nil
		case tok == token.COMMENT && !strings.HasPrefix(lit, "//go:embed"):
			continue
		case tok == token.SEMICOLON:
			lit = ""
		}
		fmt.Fprintf(&out, "%s\x00%s\x00", tok, lit)
	}
}

// withoutCommentLines is data without its lines that start with "#"
// after spaces.
func withoutCommentLines(data []byte) []byte {
	var out []byte
	for line := range bytes.Lines(data) {
		if !bytes.HasPrefix(bytes.TrimLeft(line, " \t"), []byte("#")) {
			out = append(out, line...)
		}
	}
	return out
}

// copyInputs copies the listed files into a temporary index directory.
func copyInputs(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	for _, name := range slices.Concat(buildInputs, queryInputs) {
		data, err := os.ReadFile(filepath.Join(indexRoot, name))
		if err != nil {
			t.Fatal(err)
		}
		dst := filepath.Join(root, name)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(dst, data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return root
}

// edit replaces the one occurrence of old in root's file name by new.
func edit(t *testing.T, root, name, old, new string) {
	t.Helper()
	file := filepath.Join(root, name)
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if n := bytes.Count(data, []byte(old)); n != 1 {
		t.Fatalf("%s holds %q %d times, want once", name, old, n)
	}
	if err := os.WriteFile(file, bytes.Replace(data, []byte(old), []byte(new), 1), 0o644); err != nil {
		t.Fatal(err)
	}
}

func writeIDsFile(t *testing.T, build, query string) {
	t.Helper()
	src := fmt.Sprintf(`// Code generated by go test -run TestIDs -update; DO NOT EDIT.

package versions

// Build identifies the build-time tables, constants and writers of this
// binary; Query its query-time tables, constants and models (package doc).
const (
	Build = %q
	Query = %q
)
`, build, query)
	out, err := format.Source([]byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(idsFile, out, 0o644); err != nil {
		t.Fatal(err)
	}
}
