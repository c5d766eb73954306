package index

import (
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

// TestVisibilityHint: the no-match hint names the caller's own words, not
// the word of a hidden item its typo was corrected to.
func TestVisibilityHint(t *testing.T) {
	t.Parallel()
	dir := writeCatalog(t, map[string]string{
		"secret.json": `{"server":"secret","visibility":{"groups":["ops"]},"tools":[{"name":"launch","description":"Launch the kubernetes cluster","inputSchema":{"type":"object"}}]}`,
		"open.json": `{"server":"open","tools":[
			{"name":"weather","description":"Show the weather forecast for a city","inputSchema":{"type":"object"}},
			{"name":"rain","description":"Rain forecast","inputSchema":{"type":"object"}},
			{"name":"wind","description":"Wind forecast","inputSchema":{"type":"object"}},
			{"name":"tides","description":"Tide forecast","inputSchema":{"type":"object"}},
			{"name":"sun","description":"Sunrise forecast","inputSchema":{"type":"object"}}]}`,
	})
	x := mustBuild(t, dir)
	q := ext.Query{Kind: ext.KindTool, Text: "kubernetis forecast", Limit: 5}
	page, err := x.Search(context.Background(), q)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(page.Hint, "kubernetes") || !strings.Contains(page.Hint, "kuberneti") {
		t.Errorf("got hint %q, want it to name the caller's word (stem kuberneti), never the hidden kubernetes", page.Hint)
	}
	for _, h := range page.Items {
		if h.Server == "secret" {
			t.Errorf("a caller without groups found %s", h.Object)
		}
	}
	ops := ext.WithAccess(context.Background(), ext.Access{Groups: []string{"ops"}})
	page, err = x.Search(ops, q)
	if err != nil || len(page.Items) == 0 || page.Items[0].Server != "secret" {
		t.Fatalf("ops caller: got %+v, %v, want the secret tool first", page, err)
	}
	var obj map[string]any
	json.Unmarshal(page.Items[0].Object, &obj)
	if obj["name"] != "secret__launch" {
		t.Errorf("got %v, want secret__launch", obj["name"])
	}
}
