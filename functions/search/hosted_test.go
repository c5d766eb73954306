package main

import (
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mcpsearch/mcpsearch/ext/embed"
	"github.com/mcpsearch/mcpsearch/ext/embed/embedtest"
	"github.com/mcpsearch/mcpsearch/index"
)

// hostedBundle builds the test catalog with each item embedded by srv.
func hostedBundle(t *testing.T, srv *embedtest.Server) string {
	t.Helper()
	c, err := embed.New(embed.Options{Backend: embed.OpenAI, Endpoint: srv.URL + "/v1", Model: "hashed", Dims: 32, APIKey: srv.APIKey})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "bundle")
	if _, err := index.BuildDir(writeTestCatalog(t), dir, &index.BuildOptions{Hosted: &index.HostedItems{Model: index.HostedModel(c.Model()), Embed: c.EmbedItems}}); err != nil {
		t.Fatal(err)
	}
	return dir
}

// startHosted starts the function on bundle with env and returns its
// server's URL and its logs.
func startHosted(t *testing.T, bundle string, env map[string]string) (string, *syncBuffer) {
	t.Helper()
	env["MCPSEARCH_INDEX"] = bundle
	cfg, err := readConfig(func(name string) (string, bool) { v, ok := env[name]; return v, ok })
	if err != nil {
		t.Fatal(err)
	}
	logs := &syncBuffer{}
	_, fn, err := start(cfg, nil, slog.New(slog.NewJSONHandler(logs, nil)), nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { fn.Close() })
	srv := httptest.NewServer(fn.service)
	t.Cleanup(srv.Close)
	return srv.URL, logs
}

// vectorsOf is what an explained search for query says served as its
// vectors.
func vectorsOf(t *testing.T, url, query string) string {
	t.Helper()
	raw, msg := postRaw(t, url, "tools/search", map[string]any{"query": query, "_meta": map[string]any{"io.github.mcpsearch/explain": true}})
	e, _ := path(msg, "result", "tools", 0, "_meta", "io.github.mcpsearch/explain", "vectors").(string)
	if e == "" && !strings.Contains(string(raw), `"tools"`) {
		t.Fatalf("%q: no tools in %s", query, raw)
	}
	return e
}

// TestHostedQueries: with the key, queries are embedded by the bundle's
// model at its endpoint; without it, or when the endpoint is slow, the
// function serves the word vectors' ranking and logs why, never failing
// the caller.
func TestHostedQueries(t *testing.T) {
	srv := embedtest.New(t, 32)
	srv.APIKey = "sk-function-key"
	bundle := hostedBundle(t, srv)

	url, logs := startHosted(t, bundle, map[string]string{"MCPSEARCH_EMBED_API_KEY": srv.APIKey, "MCPSEARCH_EMBED_TIMEOUT": "10s"})
	before := srv.Calls.Load()
	if got := vectorsOf(t, url, "take a screenshot of the page"); got != "hosted openai hashed (32 dimensions)" {
		t.Errorf("with the key: vectors %q, want the hosted model's", got)
	}
	if srv.Calls.Load() != before+1 || !strings.Contains(logs.String(), "queries embedded by the bundle's model") {
		t.Errorf("%d calls, logs %s; want one call and the start's line", srv.Calls.Load()-before, logs)
	}

	url, logs = startHosted(t, bundle, map[string]string{})
	if got := vectorsOf(t, url, "take a screenshot of the page"); !strings.Contains(got, "the server embeds no queries") {
		t.Errorf("no key: vectors %q, want the word vectors", got)
	}
	if !strings.Contains(logs.String(), "MCPSEARCH_EMBED_API_KEY is not set") {
		t.Errorf("no key: logs %s; want why the hosted vectors go unused", logs)
	}

	srv.Set(embedtest.Faults{Delay: 200 * time.Millisecond})
	url, logs = startHosted(t, bundle, map[string]string{"MCPSEARCH_EMBED_API_KEY": srv.APIKey, "MCPSEARCH_EMBED_TIMEOUT": "20ms"})
	if got := vectorsOf(t, url, "take a screenshot of the page"); !strings.Contains(got, "no answer within 20ms") {
		t.Errorf("slow endpoint: vectors %q, want the word vectors and why", got)
	}
	if l := logs.String(); !strings.Contains(l, "hosted query vector unavailable") || !strings.Contains(l, `"reason":"timeout"`) || strings.Contains(l, srv.APIKey) {
		t.Errorf("slow endpoint: logs %s; want the fallback with its reason, without the key", l)
	}
}

// TestEmbedSettingsRefused: a bad MCPSEARCH_EMBED_* value stops the start
// naming the variable (the key's value is never quoted).
func TestEmbedSettingsRefused(t *testing.T) {
	t.Parallel()
	for name, bad := range map[string]string{"MCPSEARCH_EMBED": "yes", "MCPSEARCH_EMBED_TIMEOUT": "1h",
		"MCPSEARCH_EMBED_ENDPOINT": "https://u:p@example.com/v1"} {
		_, err := readConfig(func(n string) (string, bool) { return map[string]string{name: bad}[n], n == name })
		if err == nil || !strings.Contains(err.Error(), name) || strings.Contains(err.Error(), "u:p") {
			t.Errorf("%s=%q: got %v, want a refusal naming the variable", name, bad, err)
		}
	}
}
