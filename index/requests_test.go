package index

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpsearch/mcpsearch/index/internal/retrieval/retrievaltest"
)

// teamCatalog is the test catalog with a team's server beside it
// (retrievaltest.TeamServer, whose tool only its written requests
// describe); what its requests find is retrieval's test
// (internal/retrieval/requests_test.go).
func teamCatalog(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, f := range []string{"notes.json", "weather.json"} {
		data, err := os.ReadFile(filepath.Join("testdata/catalog", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, f), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "acme.json"), []byte(retrievaltest.TeamServer), 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}
