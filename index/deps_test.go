package index

import (
	"os/exec"
	"strings"
	"testing"
)

// TestDependencies: the index links neither an HTTP server (bleve's
// top-level package would bring expvar and net/http) nor the MCP server,
// and the catalog model (ext/catalog) no bleve at all, so that the
// crawler does not either. A banned path ending in "/" bans every package under it.
func TestDependencies(t *testing.T) {
	t.Parallel()
	for pkg, banned := range map[string][]string{
		".":              {"net/http", "expvar", "github.com/blevesearch/bleve/v2", "github.com/mark3labs/mcp-go/server"},
		"../ext/catalog": {"github.com/blevesearch/"},
	} {
		out, err := exec.Command("go", "list", "-deps", pkg).Output()
		if err != nil {
			t.Fatalf("go list -deps %s: %v", pkg, err)
		}
		for _, dep := range strings.Fields(string(out)) {
			for _, b := range banned {
				if dep == b || strings.HasSuffix(b, "/") && strings.HasPrefix(dep, b) {
					t.Errorf("%s depends on %s", pkg, dep)
				}
			}
		}
	}
}
