package artifact

import (
	"archive/zip"
	"bytes"
	"debug/elf"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/index"
)

// TestBuildArm64 builds the Lambda artifact of the test catalog and checks
// the binary is a static linux/arm64 executable, the bundle opens, and the
// zip holds both with the modes Lambda needs, and nothing else that lay in
// the artifact's directory (before, the folder of a killed build was
// zipped).
func TestBuildArm64(t *testing.T) {
	out := filepath.Join(t.TempDir(), "artifact")
	for _, stray := range []string{".mcpsearch-build-123/bundle/objects.bin", "notes.txt"} {
		os.MkdirAll(filepath.Dir(filepath.Join(out, stray)), 0o755)
		os.WriteFile(filepath.Join(out, stray), []byte("not the bundle"), 0o644)
	}
	var progress bytes.Buffer
	r, err := Build(Options{Catalog: catalogWithChores(t), Out: out, Zip: true, Module: "../..", Progress: &progress})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(r.ErrandNote, "(chores ") || !strings.Contains(r.ErrandNote, "MCPSEARCH_RULES_OFF=errand-model") {
		t.Errorf("errand note %q: want the chores server named, and the setting", r.ErrandNote)
	}
	steps := regexp.MustCompile(`^version \S+ \(from [^\n]+\)\ncompiling bootstrap for linux/arm64\.\.\. \d+\.\ds\nbuilding the index of \S+\.\.\. \d+\.\ds\nwriting THIRD_PARTY_NOTICES\.\.\. \d+\.\ds\nzipping \S+\.zip\.\.\. \d+\.\ds\n$`)
	if !steps.MatchString(progress.String()) {
		t.Errorf("progress %q: want the version and where it came from, then each step with its time", progress.String())
	}
	bin, err := elf.Open(r.Bootstrap)
	if err != nil {
		t.Fatal(err)
	}
	defer bin.Close()
	if bin.Machine != elf.EM_AARCH64 {
		t.Errorf("bootstrap is for %v, want AArch64", bin.Machine)
	}
	for _, p := range bin.Progs {
		if p.Type == elf.PT_INTERP {
			t.Errorf("bootstrap has a dynamic loader: it is not static")
		}
	}
	if syms, _ := bin.Symbols(); len(syms) > 0 {
		t.Errorf("bootstrap keeps %d symbols: it is not stripped", len(syms))
	}
	x, err := index.Open(filepath.Join(out, "index"))
	if err != nil {
		t.Fatalf("the artifact's bundle: %v", err)
	}
	x.Close()

	zr, err := zip.OpenReader(r.Zip)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	modes := map[string]uint32{}
	var names []string
	var unzipped uint64
	for _, f := range zr.File {
		modes[f.Name] = uint32(f.Mode().Perm())
		names = append(names, f.Name)
		unzipped += f.UncompressedSize64
	}
	if modes["bootstrap"] != 0o755 || modes[NoticesFile] != 0o644 || modes["index/manifest.json"] != 0o644 || modes["index/objects.bin"] != 0o644 {
		t.Errorf("zip entries and modes: %v", modes)
	}
	want := []string{"bootstrap", NoticesFile, "index/manifest.json"}
	for _, f := range r.Manifest.Files {
		want = append(want, "index/"+f.Path)
	}
	if !slices.Equal(names, want) {
		t.Errorf("zip entries: got %v, want %v", names, want)
	}
	if r.ZipBytes <= 0 || r.ZipBytes >= r.Bytes || uint64(r.Bytes) != unzipped {
		t.Errorf("zip of %d bytes for %d unzipped (entries: %d)", r.ZipBytes, r.Bytes, unzipped)
	}
}

func TestBuildRefusesUnknownArch(t *testing.T) {
	if _, err := Build(Options{Catalog: "x", Out: t.TempDir(), Arch: "mips"}); err == nil {
		t.Error("arch mips: no error")
	}
}

// TestZipTreePrefixes zips two trees as one artifact: the first at the
// root, the second under its prefix.
func TestZipTreePrefixes(t *testing.T) {
	root := t.TempDir()
	bin, bundle := filepath.Join(root, "bin"), filepath.Join(root, "bundle")
	for path, data := range map[string]string{
		filepath.Join(bin, "bootstrap"):         "binary",
		filepath.Join(bundle, "manifest.json"):  "{}",
		filepath.Join(bundle, "bleve", "a.zap"): "segment",
	} {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(data), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(root, "a.zip")
	if _, err := ZipTree(path, Tree{Dir: bin}, Tree{Dir: bundle, Prefix: "index"}); err != nil {
		t.Fatal(err)
	}
	zr, err := zip.OpenReader(path)
	if err != nil {
		t.Fatal(err)
	}
	defer zr.Close()
	var names []string
	for _, f := range zr.File {
		names = append(names, f.Name)
	}
	want := []string{"bootstrap", "index/bleve/a.zap", "index/manifest.json"}
	if !slices.Equal(names, want) {
		t.Errorf("got entries %v, want %v", names, want)
	}
}

// TestNoticesOfTheArtifact: the artifact's notices hold mcpsearch's
// licence, the licences of the data compiled into bootstrap, the
// catalog's sources, Go's licence and the licence of every module
// bootstrap links.
func TestNoticesOfTheArtifact(t *testing.T) {
	catalog := t.TempDir()
	if err := os.WriteFile(filepath.Join(catalog, "SOURCES.md"), []byte("the definitions are the authors' text, under MIT"), 0o644); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), NoticesFile)
	if err := WriteNotices("../..", "arm64", catalog, path); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	got := string(data)
	for _, want := range []string{
		"=== mcpsearch ===", "Copyright (c) 2026 The mcpsearch authors",
		"Princeton University", "GRAYPE Systems", "Attribution-ShareAlike 4.0 International Public License",
		"=== the catalog's SOURCES.md", "the definitions are the authors' text",
		"=== Go (standard library and runtime) ===", "Copyright 2009 The Go Authors",
		"=== github.com/blevesearch/bleve/v2 v2.5.7: LICENSE ===", "Apache License",
		"=== github.com/mark3labs/mcp-go v", "=== github.com/aws/aws-lambda-go v", "=== github.com/santhosh-tekuri/jsonschema/v6 v",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("%s lacks %q", NoticesFile, want)
		}
	}
}

// catalogWithChores is the test catalog beside the bundled catalog's Slack
// server and a server whose written requests are everyday errands: most
// tools carry requests, so the build asks the errand model of them
// (index.ErrandServersNote).
func catalogWithChores(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, src := range []string{"../../index/testdata/catalog/notes.json", "../../index/testdata/catalog/weather.json", "../../functions/search/catalog/mcp-slack.json"} {
		data, err := os.ReadFile(src)
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, filepath.Base(src)), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// written here, in no training or evaluation set
	chores := `{"server":"chores","tools":[
{"name":"plants","description":"Plant care","inputSchema":{"type":"object"},"_meta":{"io.github.mcpsearch/requests":["water the plants on sunday morning","repot the basil, its roots poke out"]}},
{"name":"dinner","description":"Meal ideas","inputSchema":{"type":"object"},"_meta":{"io.github.mcpsearch/requests":["what should I cook for dinner tonight","knit a warm scarf for my grandmother"]}}]}`
	if err := os.WriteFile(filepath.Join(dir, "chores.json"), []byte(chores), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
