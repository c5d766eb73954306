package searchclient

import (
	"encoding/json"
	"fmt"
	"reflect"
	"testing"
)

func TestWords(t *testing.T) {
	for _, test := range []struct {
		in   string
		want []string
	}{
		{"takeScreenshot", []string{"take", "screenshot"}},
		{"list_merge-requests", []string{"list", "merge", "request"}},
		{"Pages of the class", []string{"page", "of", "the", "class"}},
		{"", nil},
	} {
		if got := words(test.in); !reflect.DeepEqual(got, test.want) {
			t.Errorf("words(%q): got %q, want %q", test.in, got, test.want)
		}
	}
}

func TestRankNameOutweighsDescription(t *testing.T) {
	items := []json.RawMessage{
		json.RawMessage(`{"name":"send_email","description":"Send a message"}`),
		json.RawMessage(`{"name":"notify","description":"Notify by email"}`),
		json.RawMessage(`{"name":"nothing","description":"Unrelated"}`),
	}
	got := Rank("email", items)
	if len(got) != 2 || got[0].Name != "send_email" || got[1].Name != "notify" {
		t.Errorf("got %+v, want send_email (name) before notify (description), nothing left out", got)
	}
}

// BenchmarkRank ranks 5,000 tools with a short description and two
// parameters each.
func BenchmarkRank(b *testing.B) {
	verbs := []string{"get", "list", "create", "delete", "update"}
	nouns := []string{"issue", "page", "screenshot", "branch", "email", "pipeline", "record"}
	var items []json.RawMessage
	for i := range 5000 {
		v, n := verbs[i%len(verbs)], nouns[i%len(nouns)]
		items = append(items, json.RawMessage(fmt.Sprintf(`{"name":"srv%d__%s_%s","description":"%s a %s of server %d","inputSchema":{"type":"object","properties":{"id":{"description":"the %s id"},"limit":{"description":"at most this many"}}}}`, i, v, n, v, n, i, n)))
	}
	for b.Loop() {
		Rank("take a screenshot of the page", items)
	}
}
