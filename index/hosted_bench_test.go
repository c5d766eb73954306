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

// BenchmarkHostedSearch: one tools/search over the default catalog, side
// by side in one run: with the word vectors (today), with the hosted path
// against a local OpenAI-compatible server on 127.0.0.1 (one call a
// search, no cache), and with the hosted path from the query cache (the
// exact scan of the hosted vectors, no call); at 256 dimensions and at
// Titan text embeddings v2's default of 1024. It reports each as
// ms/search and the hosted paths' ratios to the word vectors'.
func BenchmarkHostedSearch(b *testing.B) {
	for _, dims := range []int{256, 1024} {
		b.Run(fmt.Sprintf("dims=%d", dims), func(b *testing.B) { benchHosted(b, dims) })
	}
}

func benchHosted(b *testing.B, dims int) {
	srv := embedtest.New(b, dims)
	c, err := embed.New(embed.Options{Backend: embed.OpenAI, Endpoint: srv.URL + "/v1", Model: "hashed-words", Dims: dims})
	if err != nil {
		b.Fatal(err)
	}
	dir := filepath.Join(b.TempDir(), "bundle")
	if _, err := BuildDir(defaultCatalog, dir, &BuildOptions{Hosted: &HostedItems{Model: HostedModel(c.Model()), Embed: c.EmbedItems}}); err != nil {
		b.Fatal(err)
	}
	paths := map[string]*Index{"words": benchOpen(b, dir, nil), "hosted": benchOpen(b, dir, &HostedOptions{Embed: c.EmbedQuery, CacheSize: -1}),
		"cached": benchOpen(b, dir, &HostedOptions{Embed: c.EmbedQuery})}
	spent := map[string]time.Duration{}
	ctx := context.Background()
	n := 0
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		q := ext.Query{Kind: ext.KindTool, Text: benchQueries[i%len(benchQueries)], Limit: 10}
		for _, name := range []string{"words", "hosted", "cached"} {
			start := time.Now()
			if _, err := paths[name].Search(ctx, q); err != nil {
				b.Fatal(err)
			}
			spent[name] += time.Since(start)
		}
		n++
	}
	for name, d := range spent {
		b.ReportMetric(float64(d.Microseconds())/1000/float64(n), name+"-ms/search")
	}
	b.ReportMetric(float64(spent["hosted"])/float64(spent["words"]), "hosted/words")
	b.ReportMetric(float64(spent["cached"])/float64(spent["words"]), "cached/words")
	if s := paths["hosted"].HostedStats(); s.Timeouts+s.Errors > 0 {
		b.Fatalf("hosted searches fell back: %+v", s)
	}
}

// benchOpen opens the bundle at dir, embedding queries with opts (nil:
// the word vectors).
func benchOpen(b *testing.B, dir string, opts *HostedOptions) *Index {
	x, err := Open(dir)
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { x.Close() })
	if opts != nil {
		opts.Timeout = 5 * time.Second // measure the call, never fall back
		if err := x.UseHosted(*opts); err != nil {
			b.Fatal(err)
		}
	}
	return x
}
