package index

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/embed"
	"github.com/mcpsearch/mcpsearch/ext/embed/embedtest"
)

// hostedDims are the dimensions of the test server's vectors.
const hostedDims = 64

// hostedClient is an OpenAI-compatible client of srv.
func hostedClient(tb testing.TB, srv *embedtest.Server) *embed.Client {
	tb.Helper()
	c, err := embed.New(embed.Options{Backend: embed.OpenAI, Endpoint: srv.URL + "/v1", Model: "hashed-words", Dims: hostedDims,
		APIKey: srv.APIKey, Calls: &embed.Calls{Timeout: 5 * time.Second, Retries: 1, Backoff: time.Millisecond}, Batch: 4})
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// buildHosted builds the catalog at catalogDir with the items embedded by
// srv into a fresh directory and returns it.
func buildHosted(tb testing.TB, catalogDir string, srv *embedtest.Server) string {
	tb.Helper()
	dir := filepath.Join(tb.TempDir(), "bundle")
	c := hostedClient(tb, srv)
	if _, err := BuildDir(catalogDir, dir, &BuildOptions{Hosted: &HostedItems{Model: HostedModel(c.Model()), Embed: c.EmbedItems}}); err != nil {
		tb.Fatal(err)
	}
	return dir
}

// openHosted opens the bundle at dir and, when srv is not nil, has its
// searches embed queries with srv within timeout.
func openHosted(tb testing.TB, dir string, srv *embedtest.Server, timeout time.Duration, fallbacks *[]string) *Index {
	tb.Helper()
	x, err := Open(dir)
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { x.Close() })
	if srv != nil {
		opts := HostedOptions{Embed: hostedClient(tb, srv).EmbedQuery, Timeout: timeout, CacheSize: -1}
		if fallbacks != nil {
			opts.OnFallback = func(reason string, err error) { *fallbacks = append(*fallbacks, reason) }
		}
		if err := x.UseHosted(opts); err != nil {
			tb.Fatal(err)
		}
	}
	return x
}

// rankedPage is the first page of tools for text: each item's name and
// score, and the page's hint.
func rankedPage(t *testing.T, x *Index, text string) []string {
	t.Helper()
	page, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: text, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	out := []string{"hint: " + page.Hint}
	for _, h := range page.Items {
		var obj hitInfo
		decode(t, h.Object, &obj)
		out = append(out, fmt.Sprintf("%s %.6f", obj.Name, h.Score))
	}
	return out
}

// patientHosted bounds a query's embedding in the tests that compare
// hosted answers: the fake endpoint answers at once, but under the race
// detector on a loaded machine DefaultHostedTimeout (250ms) has passed
// before it did, and a fallback to the word vectors is another answer.
const patientHosted = time.Minute
