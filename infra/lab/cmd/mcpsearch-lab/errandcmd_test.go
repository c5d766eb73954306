package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/infra/lab/train"
)

// TestErrandModelIsTheTrainedOne: the errand model embedded in the index
// is what mcpsearch-lab errandmodel trains from the repository's catalog and
// errands, byte for byte: the model is data the repository can make again,
// and a change to the text analyser, the catalog's requests or the errands
// that changes it fails here until the model is trained again.
func TestErrandModelIsTheTrainedOne(t *testing.T) {
	out := filepath.Join(t.TempDir(), "model.bin")
	var stdout, stderr bytes.Buffer
	args := []string{"errandmodel", "--catalog", filepath.Join(repoRoot, "functions/search/catalog"),
		"--errands", filepath.Join(repoRoot, "infra/lab/data/errands/errands.jsonl"), "--out", out}
	if code := run(args, &stdout, &stderr); code != 0 {
		t.Fatalf("errandmodel: exit %d: %s", code, stderr.String())
	}
	trained, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	embedded, err := os.ReadFile(filepath.Join(repoRoot, train.ErrandModelFile))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(trained, embedded) {
		t.Errorf("%s is not what errandmodel trains today: run go run ./infra/lab/cmd/mcpsearch-lab errandmodel", train.ErrandModelFile)
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

// TestFitModelIsTheTrainedOne: the fit model embedded in the index is what
// mcpsearch-lab fitmodel trains from the repository's catalog and the dev
// halves of the everyday, fresh and off-catalog sets, byte for byte: a
// change to the pipeline that moves the signals fails here until the model
// is trained again.
func TestFitModelIsTheTrainedOne(t *testing.T) {
	sets := filepath.Join(repoRoot, "infra/lab/eval/testdata")
	stdout := checkRegenerates(t, train.FitModelFile, "fitmodel", "--catalog", filepath.Join(repoRoot, "functions/search/catalog"),
		"--fits", filepath.Join(sets, "everyday/queries.jsonl")+","+filepath.Join(sets, "fresh/queries.jsonl"),
		"--misfits", filepath.Join(sets, "offcatalog/queries.jsonl"))
	if !strings.Contains(stdout, "trained on the signals of 214 of 214 fitting and 62 of 64 other requests") {
		t.Errorf("output %q", stdout)
	}
}

// TestFitModelErrors: a set without a dev half, a catalog whose items
// carry no requests (the model is asked about nothing) and a rule --off
// does not know are refused with what is wrong.
func TestFitModelErrors(t *testing.T) {
	dir := t.TempDir()
	testOnly := filepath.Join(dir, "test.jsonl")
	if err := os.WriteFile(testOnly, []byte(`{"qid":"q","query":"weather in Paris","relevant":["weather__get_forecast"],"split":"test"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	dev := filepath.Join(dir, "dev.jsonl")
	if err := os.WriteFile(dev, []byte(`{"qid":"q","query":"weather in Paris","relevant":["weather__get_forecast"],"split":"dev"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, test := range []struct {
		fits, want string
	}{
		{testOnly, "test.jsonl: no query of the dev half"},
		{dev, "want some of each (do the items carry written requests?)"},
	} {
		var stderr bytes.Buffer
		args := []string{"fitmodel", "--catalog", filepath.Join(repoRoot, "index/testdata/catalog"), "--fits", test.fits, "--misfits", dev, "--out", filepath.Join(dir, "m.json")}
		if code := run(args, io.Discard, &stderr); code == 0 || !strings.Contains(stderr.String(), test.want) {
			t.Errorf("%s: exit %d, %q: want a failure saying %q", test.fits, code, stderr.String(), test.want)
		}
	}
	// --off switches rules off by name, as eval --off does
	var stderr bytes.Buffer
	args := []string{"fitmodel", "--catalog", filepath.Join(repoRoot, "index/testdata/catalog"), "--fits", dev, "--misfits", dev, "--off", "typos,nonesuch", "--out", filepath.Join(dir, "m.json")}
	if code := run(args, io.Discard, &stderr); code == 0 || !strings.Contains(stderr.String(), `"nonesuch"`) {
		t.Errorf("--off nonesuch: exit %d, %q: want a failure naming the rule", code, stderr.String())
	}
}
