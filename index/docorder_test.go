package index

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

// TestTiesFollowCatalogOrder: items of equal score come in catalog order,
// whatever order bleve gave their documents, so every build of a catalog
// answers alike. 40 servers hold the same tool; bleve numbers the documents
// of a batch in map order, so two builds almost never agree on it.
func TestTiesFollowCatalogOrder(t *testing.T) {
	t.Parallel()
	catalog := t.TempDir()
	for i := range 40 {
		body := fmt.Sprintf(`{"server": "weather%02d", "tools": [{"name": "get_forecast", "description": "Get the weather forecast for a city", "inputSchema": {"type": "object"}}]}`, i)
		if err := os.WriteFile(filepath.Join(catalog, fmt.Sprintf("weather%02d.json", i)), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	var want []string
	for i := range 10 {
		want = append(want, fmt.Sprintf("weather%02d__get_forecast", i))
	}
	for build := range 3 {
		got := names(searchHits(t, mustBuild(t, catalog), ext.KindTool, "weather forecast", 10, ext.Filter{}))
		if !slices.Equal(got, want) {
			t.Fatalf("build %d: got %v, want the first ten servers in catalog order %v", build, got, want)
		}
	}
}
