package retrieval

import (
	"testing"

	"github.com/mcpsearch/mcpsearch/index/internal/sight"
)

// TestNearestServerByWords: a name that is a whole word of a server's
// name ("github" of mcp-github), or holds one, is suggested, though many
// edits away; a part of a word is not.
func TestNearestServerByWords(t *testing.T) {
	t.Parallel()
	servers := map[string][]int32{"mcp-github": {0}, "gitlab": {0}, "server-github-enterprise": {0}, "playwright": {0}}
	for name, want := range map[string]string{
		"github":     "mcp-github",
		"GitHub":     "mcp-github",
		"enterprise": "server-github-enterprise",
		"my-gitlab":  "gitlab",
		"hub":        "",
		"play":       "",
		"wright":     "",
	} {
		if got := nearestServer(name, servers, sight.Viewer{}); got != want {
			t.Errorf("nearestServer(%q) = %q, want %q", name, got, want)
		}
	}
}
