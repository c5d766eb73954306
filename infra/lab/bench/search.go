package bench

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index"
)

// Queries is the fixed query mix of the search benchmarks.
var Queries = []string{
	"open a merge request", "take a screenshot of the page", "list kubernetes pods",
	"send a slack message to a channel", "create a calendar event", "query a database table",
	"refund a payment", "search the web for news", "deploy a site to netlify", "read a file",
	"show me my azure storage accounts", "create a jira issue", "get the weather forecast",
	"delete a branch in the repository", "summarise the open pull requests",
	"who is on call this week", "convert speech to text", "upload an image", "kubernets logs",
	"browser_take_screenshot",
}

// SearchResult is what one warm search run measured.
type SearchResult struct {
	Queries      int
	P50, P99     time.Duration
	RSSBytes     int64 // resident set after open and the queries
	OpenDuration time.Duration
}

// WarmSearch opens the bundle at dir, runs n queries of the mix (after one
// round of warm-up) and measures their latency and the process's memory.
func WarmSearch(dir string, n int) (*SearchResult, error) {
	start := time.Now()
	x, err := index.Open(dir)
	if err != nil {
		return nil, err
	}
	defer x.Close()
	r := &SearchResult{Queries: n, OpenDuration: time.Since(start)}
	ctx := context.Background()
	for _, q := range Queries {
		if _, err := x.Search(ctx, ext.Query{Kind: ext.KindTool, Text: q, Limit: 10}); err != nil {
			return nil, err
		}
	}
	lat := make([]time.Duration, n)
	for i := range n {
		t0 := time.Now()
		if _, err := x.Search(ctx, ext.Query{Kind: ext.KindTool, Text: Queries[i%len(Queries)], Limit: 10}); err != nil {
			return nil, err
		}
		lat[i] = time.Since(t0)
	}
	slices.Sort(lat)
	r.P50, r.P99 = lat[n/2], lat[min(n-1, n*99/100)]
	runtime.GC()
	r.RSSBytes, err = rss()
	return r, err
}

// rss reads the resident set size of this process from /proc.
func rss() (int64, error) {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0, fmt.Errorf("reading memory use: %w", err)
	}
	for _, line := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			return kb * 1024, err
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc/self/status")
}
