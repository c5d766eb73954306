package directory

import (
	"reflect"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

func TestNameWords(t *testing.T) {
	for name, want := range map[string]string{
		"create_merge_request":    "create merge request",
		"getHTMLPage":             "get html page",
		"browser.take-screenshot": "browser take screenshot",
		"k8s_get_pods":            "get pods",
		"ListIssuesV2":            "list issues",
	} {
		if got := strings.Join(nameWords(name), " "); got != want {
			t.Errorf("%s: got %q, want %q", name, got, want)
		}
	}
	c := newTopicCounter("gitlab")
	for _, label := range []string{"gitlab_list_issues", "get_issue", "create_issue", "list_pipelines", "retry_pipeline", "get_user"} {
		c.add(ext.KindTool, label)
	}
	if got := c.top(maxTopics); !reflect.DeepEqual(got, []string{"issue", "pipeline"}) {
		t.Errorf("topics: got %v, want issue and pipeline (shared words, plurals folded, no verbs, no server name)", got)
	}
}
