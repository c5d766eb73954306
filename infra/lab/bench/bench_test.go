package bench

import (
	"io"
	"log/slog"
	"net/http/httptest"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/ext/server"
	"github.com/mcpsearch/mcpsearch/index"
)

func TestScaleCatalog(t *testing.T) {
	for _, n := range []int{3, 6, 20} {
		dst := filepath.Join(t.TempDir(), "scaled")
		if err := ScaleCatalog("../../../index/testdata/catalog", dst, n); err != nil {
			t.Fatal(err)
		}
		cat, err := catalog.LoadDir(dst, nil)
		if err != nil {
			t.Fatalf("%d tools: the scaled catalog does not load: %v", n, err)
		}
		if got := cat.Count(ext.KindTool); got != n {
			t.Errorf("got %d tools, want %d", got, n)
		}
	}
}

func TestWarmSearch(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bundle")
	if _, err := index.BuildDir("../../../index/testdata/catalog", dir, nil); err != nil {
		t.Fatal(err)
	}
	r, err := WarmSearch(dir, 50)
	if err != nil {
		t.Fatal(err)
	}
	if r.Queries != 50 || r.P50 <= 0 || r.P99 < r.P50 || r.RSSBytes <= 0 {
		t.Errorf("got %+v", r)
	}
}

func TestLoad(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bundle")
	if _, err := index.BuildDir("../../../index/testdata/catalog", dir, nil); err != nil {
		t.Fatal(err)
	}
	x, err := index.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	ts := httptest.NewServer(server.New(x, &server.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}))
	defer ts.Close()
	r, err := Load(ts.URL+"/mcp", 4, 200, 20*time.Second)
	if err != nil {
		t.Fatal(err)
	}
	if r.Clients != 4 || r.Requests != 200 || r.Errors != 0 || r.P50 <= 0 || r.P99 < r.P50 || r.Throughput() <= 0 {
		t.Errorf("got %+v, want 200 requests, no errors, ordered latencies", r)
	}
	ts.Close()
	if broken, err := Load(ts.URL+"/mcp", 2, 10, 5*time.Second); err == nil {
		t.Errorf("got %+v, want the warm-up against a stopped server to fail", broken)
	}
}

// TestScaleServers: whole server files, copied under new names until
// there are as many servers as asked.
func TestScaleServers(t *testing.T) {
	dst := filepath.Join(t.TempDir(), "scaled")
	if err := ScaleServers("../../../index/testdata/catalog", dst, 5); err != nil {
		t.Fatal(err)
	}
	cat, err := catalog.LoadDir(dst, nil)
	if err != nil {
		t.Fatalf("the scaled catalog does not load: %v", err)
	}
	src, err := catalog.LoadDir("../../../index/testdata/catalog", nil)
	if err != nil {
		t.Fatal(err)
	}
	tools := map[string]int{}
	for _, it := range src.Items {
		if it.Kind == ext.KindTool {
			tools[it.Server]++
		}
	}
	var names []string
	for _, s := range cat.Servers {
		names = append(names, s.Name)
	}
	slices.Sort(names)
	want := []string{"notes", "notes-2", "notes-3", "weather", "weather-2"}
	if !slices.Equal(names, want) || cat.Count(ext.KindTool) != 3*tools["notes"]+2*tools["weather"] {
		t.Errorf("got servers %v and %d tools, want %v with all their tools", names, cat.Count(ext.KindTool), want)
	}
}
