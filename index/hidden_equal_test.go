package index

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

// vectorRules are the rules that read the item vectors, which are centred
// on the mean vector of every item and grouped in lists around centroids
// of every item: the one statistic of a bundle still made over what a
// caller may not see (functions/search/README.md, "What is not hidden").
var vectorRules = []string{"similarity", "dense-candidates", "clauses"}

// fullAnswer is everything a search tells a caller: whether it has items,
// which, in order, with their scores and explanations, and its hint. The
// explanations leave out the cosine of the word vectors (vectorRules).
func fullAnswer(tb testing.TB, x *Index, ctx context.Context, q ext.Query) string {
	tb.Helper()
	q.Explain = true
	p := mustSearch(tb, x, ctx, q)
	var b strings.Builder
	fmt.Fprintf(&b, "hint %q more %v\n", p.Hint, p.More)
	for _, h := range p.Items {
		var e map[string]any
		data, err := json.Marshal(h.Explain)
		if err != nil {
			tb.Fatal(err)
		}
		decode(tb, data, &e)
		if r, ok := e["rerank"].(map[string]any); ok {
			delete(r, "similarity")
		}
		fmt.Fprintf(&b, "%s %.9f %s\n", hitNames(tb, &ext.Page{Items: []ext.Hit{h}})[0], h.Score, fmtJSON(e))
	}
	return b.String()
}

// setRulesOff switches rules off on every index, or fails.
func setRulesOff(tb testing.TB, rules []string, xs ...*Index) {
	tb.Helper()
	for _, x := range xs {
		if err := x.SetRulesOff(rules...); err != nil {
			tb.Fatal(err)
		}
	}
}

// TestHiddenItemsShapeNothing: a caller who sees a quarter of the default
// catalog (each server restricted to one of four groups) gets, for every
// everyday and off-catalog request of infra/lab/eval/testdata, the answer the
// catalog of that quarter alone gives — its items in order, their scores
// and explanations, its hint — once the rules that read the item vectors
// are off: every count, idf, average length, budget and share the BM25
// retrieval, the written requests and the no-match test weigh is the
// caller's. With every rule on, whether the page has items is still the
// same for every request (TestHiddenServersRanking measures the rest).
func TestHiddenItemsShapeNothing(t *testing.T) {
	t.Parallel()
	full, quarter := restrictedDefaultIndex(t), mustBuild(t, quarterOf(t, restrictedDefault(t), "team0"))
	setRulesOff(t, vectorRules, full, quarter)
	caller := ext.WithAccess(context.Background(), ext.Access{Groups: []string{"team0"}})
	differ := 0
	for _, query := range evalQueries(t) {
		q := ext.Query{Kind: ext.KindTool, Text: query, Limit: 10}
		if got, want := fullAnswer(t, full, caller, q), fullAnswer(t, quarter, caller, q); got != want {
			if differ++; differ <= 3 {
				t.Errorf("%q:\ngot  %s\nwant %s", query, got, want)
			}
		}
	}
	if differ > 0 {
		t.Errorf("%d requests answered otherwise beside hidden items", differ)
	}
}

// TestHiddenRequestsSwitchNothing: whether most items carry written
// requests (what switches the errand and fit models on) is counted over
// the items the caller sees. A public server of six tools without
// requests beside a hidden server of forty tools with them: the caller
// who cannot see the hidden server is answered as the catalog of the six
// alone answers it.
func TestHiddenRequestsSwitchNothing(t *testing.T) {
	t.Parallel()
	const cafe = `{"server":"cafe","tools":[
		{"name":"order_lunch","description":"Order lunch from the office cafe menu","inputSchema":{"type":"object"}},
		{"name":"list_menu","description":"List today's cafe menu","inputSchema":{"type":"object"}},
		{"name":"book_room","description":"Book a meeting room","inputSchema":{"type":"object"}},
		{"name":"cancel_order","description":"Cancel a cafe order","inputSchema":{"type":"object"}},
		{"name":"rate_meal","description":"Rate a meal you ate","inputSchema":{"type":"object"}},
		{"name":"show_hours","description":"Show the cafe's opening hours","inputSchema":{"type":"object"}}]}`
	var hidden []string
	for i := range 40 {
		hidden = append(hidden, fmt.Sprintf(`{"name":"deploy_%d","description":"Deploy service %d to production","inputSchema":{"type":"object"},
			"_meta":{"io.github.mcpsearch/requests":["ship service %d to prod","roll out the new build of service %d","push release of service %d live"]}}`, i, i, i, i, i))
	}
	x := mustBuild(t, writeCatalog(t, map[string]string{
		"cafe.json": cafe,
		"ops.json":  `{"server":"ops","visibility":{"groups":["ops"]},"tools":[` + strings.Join(hidden, ",") + `]}`,
	}))
	alone := mustBuild(t, writeCatalog(t, map[string]string{"cafe.json": cafe}))
	public := context.Background()
	setRulesOff(t, vectorRules, x, alone)
	for _, query := range []string{"order lunch", "I'd like to order some lunch please", "book a flight to Lisbon", "cancel my order"} {
		q := ext.Query{Kind: ext.KindTool, Text: query, Limit: 5}
		if got, want := fullAnswer(t, x, public, q), fullAnswer(t, alone, public, q); got != want {
			t.Errorf("%q beside a hidden server with requests:\ngot  %s\nwant %s", query, got, want)
		}
	}
	if p := mustSearch(t, x, public, ext.Query{Kind: ext.KindTool, Text: "order lunch", Limit: 1}); len(p.Items) == 0 || hitNames(t, p)[0] != "cafe__order_lunch" {
		t.Errorf("order lunch: got %v (%q), want cafe__order_lunch", hitNames(t, p), p.Hint)
	}
}

// TestHiddenRequestWordsPastTheBudget: a query long enough to pass the
// postings budget of the written requests still weighs each later term by
// what the caller sees: a word that only hidden items' requests hold (and
// one visible tool's description) is a word no request holds, and the
// answer is that of the catalog without the hidden items.
func TestHiddenRequestWordsPastTheBudget(t *testing.T) {
	t.Parallel()
	common := strings.Fields("rotate archive export backup invoice ledger ticket deploy cluster")
	var open []string
	open = append(open, `{"name":"polish","description":"Polish zirconia crowns","inputSchema":{"type":"object"}}`)
	for i := range 2000 { // each common word's 2,000 postings: nine pass the budget of 16,384
		open = append(open, fmt.Sprintf(`{"name":"t%d","description":"tool %d","inputSchema":{"type":"object"},"_meta":{"io.github.mcpsearch/requests":[%q]}}`, i, i, strings.Join(common, " ")))
	}
	var hidden []string
	for i := range 300 {
		hidden = append(hidden, fmt.Sprintf(`{"name":"h%d","description":"vault %d","inputSchema":{"type":"object"},"_meta":{"io.github.mcpsearch/requests":["zirconia vault %d"]}}`, i, i, i))
	}
	openFile := `{"server":"open","tools":[` + strings.Join(open, ",") + `]}`
	x := mustBuild(t, writeCatalog(t, map[string]string{
		"open.json":  openFile,
		"vault.json": `{"server":"vault","visibility":{"groups":["vault"]},"tools":[` + strings.Join(hidden, ",") + `]}`,
	}))
	alone := mustBuild(t, writeCatalog(t, map[string]string{"open.json": openFile}))
	setRulesOff(t, vectorRules, x, alone)
	public := context.Background()
	q := ext.Query{Kind: ext.KindTool, Text: strings.Join(common, " ") + " zirconia", Limit: 5}
	got, want := fullAnswer(t, x, public, q), fullAnswer(t, alone, public, q)
	if got != want {
		t.Errorf("a word only hidden requests hold, past the budget:\ngot  %s\nwant %s", got, want)
	}
	if reflect.DeepEqual(got, fullAnswer(t, x, ext.WithAccess(public, ext.Access{All: true}), q)) {
		t.Error("a caller who sees the vault gets the same answer: the test's word weighs nothing")
	}
}
