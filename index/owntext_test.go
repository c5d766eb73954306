package index

import (
	"context"
	"encoding/json"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

// expenses is the three-tool team catalog of issue 35: one tool carries
// written requests, the two others do not.
const expenses = `{"server":"expenses","tools":[
	{"name":"submit_expense","description":"Submit an expense.","inputSchema":{"type":"object"},
	 "_meta":{"io.github.mcpsearch/requests":["submit my expense so my manager can approve it","send the expense to be approved","file an expense for approval","put in an expense claim for the hotel"]}},
	{"name":"approve_expense","description":"Mark a pending expense report as accepted by its reviewer.","inputSchema":{"type":"object"}},
	{"name":"list_expenses","description":"List expenses.","inputSchema":{"type":"object"}}]}`

// TestMixedCatalogIsFair: in a catalog where only some items carry
// written requests, an item without them is not beaten by one with
// requests that fits the request less well (own-text), in the ranking
// and in the no-match test. Switched off, the item with requests wins
// again.
func TestMixedCatalogIsFair(t *testing.T) {
	t.Parallel()
	x := mustBuild(t, writeCatalog(t, map[string]string{"expenses.json": expenses}))
	ctx := context.Background()
	approve := ext.Query{Kind: ext.KindTool, Text: "approve an expense", Limit: 3}
	if got := hitNames(t, mustSearch(t, x, ctx, approve)); len(got) == 0 || got[0] != "expenses__approve_expense" {
		t.Errorf("%q: got %v, want expenses__approve_expense first", approve.Text, got)
	}
	signOff := ext.Query{Kind: ext.KindTool, Text: "which expenses do I need to sign off", Limit: 3}
	p := mustSearch(t, x, ctx, signOff)
	if got := hitNames(t, p); !slices.Contains(got, "expenses__approve_expense") && !slices.Contains(got, "expenses__list_expenses") {
		t.Errorf("%q: got %v (hint %q), want approve_expense or list_expenses among the first 3", signOff.Text, got, p.Hint)
	}
	off := mustBuild(t, writeCatalog(t, map[string]string{"expenses.json": expenses}))
	setRulesOff(t, []string{"own-text"}, off)
	if got := hitNames(t, mustSearch(t, off, ctx, approve)); len(got) > 0 && got[0] == "expenses__approve_expense" {
		t.Errorf("own-text off: %q still ranks approve_expense first (%v): the test no longer shows what the rule does", approve.Text, got)
	}
}

// TestOwnTextIsExplained: an item whose best request is its own text is
// explained as such, and one with written requests is not.
func TestOwnTextIsExplained(t *testing.T) {
	t.Parallel()
	x := mustBuild(t, writeCatalog(t, map[string]string{"expenses.json": expenses}))
	p := mustSearch(t, x, context.Background(), ext.Query{Kind: ext.KindTool, Text: "approve an expense", Limit: 3, Explain: true})
	own := map[string]bool{}
	for _, h := range p.Items {
		var obj struct{ Name string }
		if err := json.Unmarshal(h.Object, &obj); err != nil {
			t.Fatal(err)
		}
		e, _ := json.Marshal(h.Explain)
		var ex struct {
			Request *struct {
				Text string
				Own  bool
			}
		}
		decode(t, e, &ex)
		if ex.Request != nil {
			own[obj.Name] = ex.Request.Own
		}
	}
	if o, ok := own["expenses__approve_expense"]; !ok || !o {
		t.Errorf("approve_expense's request explained %v (%v), want its own text", o, ok)
	}
	if o, ok := own["expenses__submit_expense"]; ok && o {
		t.Errorf("submit_expense's request explained as its own text, want a written one")
	}
}

// TestOwnTextNeedsWrittenRequestsSeen: where the caller sees no item with
// written requests, the items' own text is not read as requests at all:
// an explanation shows no request, whatever a hidden server holds.
func TestOwnTextNeedsWrittenRequestsSeen(t *testing.T) {
	t.Parallel()
	const plain = `{"server":"notes","tools":[
		{"name":"create_note","description":"Create a note with a title and a body.","inputSchema":{"type":"object"}},
		{"name":"delete_note","description":"Delete a note.","inputSchema":{"type":"object"}}]}`
	x := mustBuild(t, writeCatalog(t, map[string]string{"notes.json": plain,
		"ops.json": `{"server":"ops","visibility":{"groups":["ops"]},"tools":[{"name":"deploy","description":"Deploy a service.","inputSchema":{"type":"object"},
			"_meta":{"io.github.mcpsearch/requests":["ship the service to prod"]}}]}`}))
	p := mustSearch(t, x, context.Background(), ext.Query{Kind: ext.KindTool, Text: "create a note", Limit: 2, Explain: true})
	if len(p.Items) == 0 {
		t.Fatalf("create a note: no items (%q)", p.Hint)
	}
	for _, h := range p.Items {
		e, _ := json.Marshal(h.Explain)
		if strings.Contains(string(e), `"request"`) {
			t.Errorf("a caller who sees no written request was explained a request: %s", e)
		}
	}
}

// TestOwnWindowIsMeasured: the fit model reads a search whose first items
// mostly compete by their own text against its own threshold; the
// signal says so where most of the first items carry no written
// requests, and not where they do.
func TestOwnWindowIsMeasured(t *testing.T) {
	t.Parallel()
	mixed := mustBuild(t, writeCatalog(t, map[string]string{"expenses.json": expenses}))
	s, asked, err := mixed.FitSignalsOfSearch(context.Background(), "approve an expense")
	if err != nil || !asked {
		t.Fatalf("mixed: asked %v, %v", asked, err)
	}
	if !s.OwnWindow {
		t.Errorf("mixed, two of three tools without written requests: OwnWindow unset (%+v)", s)
	}
	written := strings.NewReplacer(`"inputSchema":{"type":"object"}}`, `"inputSchema":{"type":"object"},"_meta":{"io.github.mcpsearch/requests":["look at the expenses"]}}`).Replace(expenses)
	all := mustBuild(t, writeCatalog(t, map[string]string{"expenses.json": written}))
	s, asked, err = all.FitSignalsOfSearch(context.Background(), "approve an expense")
	if err != nil || !asked {
		t.Fatalf("all written: asked %v, %v", asked, err)
	}
	if s.OwnWindow {
		t.Errorf("every tool with written requests: OwnWindow set (%+v)", s)
	}
}
