package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/index"
)

// TestErrandModelIsTheTrainedOne: the errand model embedded in the index
// is what mcpsearch errandmodel trains from the repository's catalog and
// errands, byte for byte: the model is data the repository can make again,
// and a change to the text analyser, the catalog's requests or the errands
// that changes it fails here until the model is trained again.
func TestErrandModelIsTheTrainedOne(t *testing.T) {
	out := filepath.Join(t.TempDir(), "model.bin")
	var stdout, stderr bytes.Buffer
	args := []string{"errandmodel", "--catalog", filepath.Join(repoRoot, "functions/search/catalog"),
		"--errands", filepath.Join(repoRoot, "infra/data/errands/errands.jsonl"), "--out", out}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("errandmodel: exit %d: %s", code, stderr.String())
	}
	trained, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	embedded, err := os.ReadFile(filepath.Join(repoRoot, index.ErrandModelFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(trained, embedded) {
		t.Errorf("%s is not what errandmodel trains today: run go run ./infra/cmd/mcpsearch errandmodel", index.ErrandModelFile)
	}
	if !strings.Contains(stdout.String(), "trained on 28557 requests and 1800 errands") {
		t.Errorf("output %q", stdout.String())
	}
}

// TestErrandModelErrors: a missing or malformed errands file is named.
func TestErrandModelErrors(t *testing.T) {
	bad := filepath.Join(t.TempDir(), "errands.jsonl")
	if err := os.WriteFile(bad, []byte("{\"id\":1}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, errandsFile := range []string{filepath.Join(t.TempDir(), "none.jsonl"), bad} {
		var stderr bytes.Buffer
		args := []string{"errandmodel", "--catalog", filepath.Join(repoRoot, "index/testdata/catalog"), "--errands", errandsFile, "--out", filepath.Join(t.TempDir(), "m.bin")}
		if code := run(args, io.Discard, &stderr); code == 0 || !strings.Contains(stderr.String(), filepath.Base(errandsFile)) {
			t.Errorf("%s: exit %d, %q: want a failure naming the file", errandsFile, code, stderr.String())
		}
	}
}
