package index

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// contentCatalog holds two resources; only the runbook's content (read by
// crawl --read-resources) holds the word "zanzibar".
const contentCatalog = `{"server":"docs",
 "resources":[
  {"uri":"file:///runbook.md","name":"runbook","description":"Operations notes","mimeType":"text/markdown"},
  {"uri":"file:///faq.md","name":"faq","description":"Questions people ask","mimeType":"text/markdown"}],
 "resourceContents":[
  {"uri":"file:///runbook.md","mimeType":"text/markdown","text":"# Failover\nPromote the replica in the zanzibar region first."},
  {"uri":"file:///faq.md","mimeType":"text/markdown","text":"Nothing about islands here."}]}`

func TestResourceFoundByContent(t *testing.T) {
	t.Parallel()
	dir := writeCatalog(t, map[string]string{"docs.json": contentCatalog})
	cat, err := catalog.LoadDir(dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := cat.Items[1].Content; !strings.Contains(got, "zanzibar") { // items sorted by URI: faq, runbook
		t.Fatalf("got content %q of %s, want the runbook's text", got, cat.Items[1].URI)
	}
	hits := searchHits(t, mustBuild(t, dir), ext.KindResource, "zanzibar replica", 5, ext.Filter{})
	if got := uris(hits); !slices.Equal(got, []string{"file:///runbook.md"}) {
		t.Errorf("got %v, want [file:///runbook.md]: the word is only in its content", got)
	}
	// Without the contents, nothing holds the word.
	bare := writeCatalog(t, map[string]string{"docs.json": contentCatalog[:strings.Index(contentCatalog, `,
 "resourceContents"`)] + "}"})
	if hits := searchHits(t, mustBuild(t, bare), ext.KindResource, "zanzibar replica", 5, ext.Filter{}); len(hits) != 0 {
		t.Errorf("without contents: got %v, want no hits", uris(hits))
	}
}

func uris(hits []hitInfo) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.URI
	}
	return out
}

func TestContentChangesIndexVersion(t *testing.T) {
	t.Parallel()
	load := func(text string) string {
		dir := writeCatalog(t, map[string]string{"docs.json": strings.Replace(contentCatalog, "zanzibar", text, 1)})
		cat, err := catalog.LoadDir(dir, nil)
		if err != nil {
			t.Fatal(err)
		}
		return cat.Version(FormatVersion)
	}
	if a, b := load("zanzibar"), load("madagascar"); a == b {
		t.Errorf("got the same index version %s for different resource contents", a)
	}
}
