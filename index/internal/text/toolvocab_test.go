package text

import "testing"

// TestToolVocab: the table loads, its lines the analyzer's terms,
// and holds the products servers are named for (not words many servers'
// tools use) and the objects tools are named for (not values a request
// passes).
func TestToolVocab(t *testing.T) {
	is := func(f func(string) bool, w string) bool {
		terms := Analyze(w)
		return len(terms) == 1 && f(terms[0])
	}
	for _, w := range []string{"trello", "stripe", "airtable", "slack", "Notion"} {
		if !is(IsProductTerm, w) {
			t.Errorf("%s: not a product", w)
		}
	}
	for _, w := range []string{"chart", "paris", "monthly", "revenue", "create", "file"} {
		if is(IsProductTerm, w) {
			t.Errorf("%s: a product", w)
		}
	}
	for _, w := range []string{"flight", "invoice", "deploy", "calendar"} {
		if !is(IsObjectTerm, w) {
			t.Errorf("%s: not an object", w)
		}
	}
	for _, w := range []string{"paris", "lisbon", "revenue", "trello"} {
		if is(IsObjectTerm, w) {
			t.Errorf("%s: an object", w)
		}
	}
	v := loadToolVocab("# a comment\nunsourced\nsource: products: a test\nacm\ncloud\nsource: objects: a test\nwidget\nsource: other\nzebra\nquarantined: objects: a doubt\nbeta\n")
	if !v.products["acm"] || !v.products["cloud"] || !v.objects["widget"] || len(v.products) != 2 || len(v.objects) != 1 {
		t.Errorf("loadToolVocab: %v; want products acme and cloud, objects widget", v)
	}
}
