package retrieval_test

import (
	"fmt"
	"slices"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval/retrievaltest"
)

// TestTiesFollowCatalogOrder: items of equal score come in catalog order,
// whatever order bleve gave their documents, so every build of a catalog
// answers alike. 40 servers hold the same tool; bleve numbers the documents
// of a batch in map order, so two builds almost never agree on it.
func TestTiesFollowCatalogOrder(t *testing.T) {
	t.Parallel()
	files := map[string]string{}
	for i := range 40 {
		files[fmt.Sprintf("weather%02d.json", i)] = fmt.Sprintf(`{"server": "weather%02d", "tools": [{"name": "get_forecast", "description": "Get the weather forecast for a city", "inputSchema": {"type": "object"}}]}`, i)
	}
	var want []string
	for i := range 10 {
		want = append(want, fmt.Sprintf("weather%02d__get_forecast", i))
	}
	for build := range 3 {
		got := retrievaltest.Files(t, files).Names(t, ext.Query{Kind: ext.KindTool, Text: "weather forecast", Limit: 10}, ext.Access{All: true}, 10)
		if !slices.Equal(got, want) {
			t.Fatalf("build %d: got %v, want the first ten servers in catalog order %v", build, got, want)
		}
	}
}
