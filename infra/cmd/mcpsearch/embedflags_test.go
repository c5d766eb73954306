package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext/embed/embedtest"
	"github.com/mcpsearch/mcpsearch/index"
)

// TestBuildHosted: build --embed-… embeds every item with the endpoint
// (the key read from the variable --embed-api-key-env names) into the
// bundle, which records the model and not the key; a search of it then
// embeds its query with the same endpoint.
func TestBuildHosted(t *testing.T) {
	srv := embedtest.New(t, 32)
	srv.APIKey = "sk-build-key-not-in-bundle"
	t.Setenv("TEST_EMBED_KEY", srv.APIKey)
	dir := filepath.Join(t.TempDir(), "bundle")
	code, out, errOut := runCLI("build", "--catalog", "../../../index/testdata/catalog", "--out", dir,
		"--embed-backend", "openai", "--embed-endpoint", srv.URL+"/v1", "--embed-model", "hashed", "--embed-dims", "32",
		"--embed-api-key-env", "TEST_EMBED_KEY")
	if code != 0 || !strings.Contains(out, "hosted vectors: every item embedded by openai hashed (32 dimensions)") {
		t.Fatalf("build: exit %d, %s%s", code, out, errOut)
	}
	x, err := index.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if m, ok := x.HostedModel(); !ok || m.Endpoint != srv.URL+"/v1" || m.Dims != 32 {
		t.Errorf("the bundle records %+v, %v; want the endpoint and 32 dimensions", m, ok)
	}
	if srv.Texts.Load() != 10 {
		t.Errorf("%d texts embedded, want the 10 items", srv.Texts.Load())
	}
	for _, f := range x.Manifest().Files {
		if b, _ := os.ReadFile(filepath.Join(dir, f.Path)); strings.Contains(string(b), srv.APIKey) {
			t.Errorf("%s holds the key", f.Path)
		}
	}
}

// TestBuildHostedRefused: flags that do not go together, an unset key
// variable or a refusing endpoint fail the build with a message saying
// why, and no bundle is written.
func TestBuildHostedRefused(t *testing.T) {
	srv := embedtest.New(t, 32)
	srv.APIKey = "sk-right"
	t.Setenv("TEST_WRONG_KEY", "sk-wrong")
	for _, test := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--embed-model", "m"}, 2, "need --embed-backend"},
		{[]string{"--embed-backend", "cohere", "--embed-model", "m"}, 2, `--embed-backend "cohere"`},
		{[]string{"--embed-backend", "openai", "--embed-model", "m", "--embed-endpoint", srv.URL + "/v1", "--embed-region", "eu-west-1"}, 2, "--embed-region is for bedrock"},
		{[]string{"--embed-backend", "openai", "--embed-model", "m", "--embed-endpoint", srv.URL + "/v1", "--embed-api-key-env", "TEST_UNSET_KEY"}, 1, "TEST_UNSET_KEY is not set"},
		{[]string{"--embed-backend", "openai", "--embed-model", "m", "--embed-endpoint", srv.URL + "/v1", "--embed-api-key-env", "TEST_WRONG_KEY"}, 1, "HTTP 401"},
	} {
		dir := filepath.Join(t.TempDir(), "bundle")
		args := append([]string{"build", "--catalog", "../../../index/testdata/catalog", "--out", dir}, test.args...)
		code, out, errOut := runCLI(args...)
		if code != test.code || !strings.Contains(errOut, test.want) || strings.Contains(errOut, "sk-wrong") {
			t.Errorf("%v: exit %d, %s%s; want exit %d saying %q", test.args, code, out, errOut, test.code, test.want)
		}
		if _, err := os.Stat(dir); err == nil {
			t.Errorf("%v: a bundle was written", test.args)
		}
	}
}
