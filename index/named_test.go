package index

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

// namedServerTails are tasks other servers' tools and written requests
// answer too, so that a server named beside them competes with every
// other server's requests for the re-ranking window (issue 36 item 4).
var namedServerTails = []string{
	"tell the team the deploy is done",
	"find the latest report from last week",
	"list everything that changed today",
}

// TestNamedServersReachTheWindow: over the bundled default catalog, a
// request that names a server the caller sees ("on cloudflare tell the
// team the deploy is done") has an item of that server in its re-ranking
// window, for every server whose name names one (named-server-items); with
// the rule off, more than one in twenty have none of their items there,
// crowded out by other servers' written requests (18 of 201 on 4
// December: Bright Data, Cloudflare, DBHub, Heroku, LaunchDarkly …). Where
// the words that name the server name another too (mcp-gitlab's "gitlab"
// names gitlab-zereight), an item of either is the server heard.
func TestNamedServersReachTheWindow(t *testing.T) {
	t.Parallel()
	x := defaultIndex(t)
	off := defaultIndexWithout(t, "named-server-items")
	servers, err := x.Servers()
	if err != nil {
		t.Fatal(err)
	}
	asked, missedOff, joined := 0, 0, 0
	for _, s := range servers {
		if s.Counts[ext.KindTool] == 0 {
			continue
		}
		for _, tail := range namedServerTails {
			q := "on " + strings.ReplaceAll(s.Name, "-", " ") + " " + tail
			asked++
			in, byName := serverInWindow(t, x, q, s.Name)
			if !in {
				t.Errorf("%q: no item of %s in the re-ranking window", q, s.Name)
			}
			if in, _ := serverInWindow(t, off, q, s.Name); !in {
				missedOff++
				if byName {
					joined++
				}
			}
		}
	}
	if 20*missedOff < asked {
		t.Errorf("named-server-items off: %d of %d requests miss their server; the test's requests do not crowd servers out", missedOff, asked)
	}
	if joined == 0 {
		t.Errorf("no explanation says an item joined the window for its server named (rerank.joinedNamed), of %d requests heard only with the rule", missedOff)
	}
}

// serverInWindow reports whether an item of server is among the re-ranked
// items (those whose explanation carries re-ranking signals) of q's page,
// and whether one of them says it is there for its server named.
func serverInWindow(t *testing.T, x *Index, q, server string) (in, byName bool) {
	t.Helper()
	page, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: q, Limit: 50, Explain: true})
	if err != nil {
		t.Fatalf("search %q: %v", q, err)
	}
	for _, h := range page.Items {
		if e, ok := h.Explain.(*Explanation); ok && e.Rerank != nil && namedBy(server, h.Server) {
			in = true
			byName = byName || e.Rerank.JoinedNamed && strings.Contains(e.Summary, "in the window for its server named")
		}
	}
	return in, byName
}

// namedBy reports whether the name of server b holds every word that
// names a system of server a's name (those of rank.ServerWords: not mcp,
// server, api …): naming a names b too.
func namedBy(a, b string) bool {
	words := strings.Fields(strings.NewReplacer("-", " ", "_", " ").Replace(b))
	for _, w := range strings.Fields(strings.NewReplacer("-", " ", "_", " ").Replace(a)) {
		if w == "mcp" || w == "server" || w == "api" {
			continue
		}
		if !slices.Contains(words, w) {
			return false
		}
	}
	return true
}
