package retrieval_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval/retrievaltest"
	"github.com/mcpsearch/mcpsearch/index/internal/rules"
)

// crowdedCatalog is a chat server whose written requests repeat a
// request's words beside the server it names (issue 36: "tell the team on
// slack the deploy is done" had no Slack tool in its first 1,000, a Lark
// request repeating its words), its visibility vis ("" public).
func crowdedCatalog(vis string) map[string]string {
	var tools []string
	for i := range retrieval.RerankWindow + 10 {
		tools = append(tools, fmt.Sprintf(`{"name":"send_card_%d","description":"Send card %d to a group chat.","inputSchema":{"type":"object"},
			"_meta":{"io.github.mcpsearch/requests":["tell the team the deploy is done %d","let the team know the deploy finished %d"]}}`, i, i, i, i))
	}
	slack := `{"server":"slack",` + vis + `"tools":[{"name":"slack_post_message","description":"Post a new message to a Slack channel.","inputSchema":{"type":"object"},
		"_meta":{"io.github.mcpsearch/requests":["post in the channel","write to the engineering channel"]}}]}`
	return map[string]string{
		"lark.json":  `{"server":"lark","tools":[` + strings.Join(tools, ",") + `]}`,
		"slack.json": slack,
	}
}

// TestNamedServerIsHeard: a server the query names reaches the
// re-ranking window however many other servers' requests repeat the
// query's words (named-server-items; off, it does not), and a server the
// caller does not see is never weighed.
func TestNamedServerIsHeard(t *testing.T) {
	t.Parallel()
	q := ext.Query{Kind: ext.KindTool, Text: "tell the team on slack the deploy is done", Limit: 5}
	inWindow := func(res *retrieval.Result) bool {
		for _, c := range res.Candidates {
			if c.Signals != nil && c.Server == "slack" {
				return true
			}
		}
		return false
	}
	public := retrievaltest.Files(t, crowdedCatalog(""))
	all := ext.Access{All: true}
	if res := retrievaltest.Ranked(t, public.Source(all), q, all, 0); res == nil || !inWindow(res) {
		t.Errorf("public slack: no Slack tool in the window")
	}
	off := rules.Set(0).Without(rules.NamedServerItems)
	if res := retrievaltest.Ranked(t, public.Source(all), q, all, off); res == nil || inWindow(res) {
		t.Errorf("named-server-items off: a Slack tool in the window; the test's catalog does not crowd it out")
	}
	hidden := retrievaltest.Files(t, crowdedCatalog(`"visibility":{"groups":["ops"]},`))
	for _, c := range retrievaltest.Ranked(t, hidden.Source(ext.Access{}), q, ext.Access{}, 0).Candidates {
		if c.Server == "slack" {
			t.Errorf("a caller outside ops got the hidden %s", c.ID)
		}
	}
	ops := ext.Access{Groups: []string{"ops"}}
	if res := retrievaltest.Ranked(t, hidden.Source(ops), q, ops, 0); res == nil || !inWindow(res) {
		t.Errorf("a caller in ops: no Slack tool in the window")
	}
}
