package index

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

// TestHintsNameWhatIsMissing: a kept page's hint names what no item the
// caller sees holds, or a product (missing-hints, issue 36), not the
// words of a task its right first item need not hold. The Slack request's
// first item posts to Slack: no hint; with the rule off its hint names
// "done, deploy, team, tell". A product the catalog lacks (Trello) and a
// product code (s3) are still named; an argument value (a host, a
// secret's name, an order code) is not.
func TestHintsNameWhatIsMissing(t *testing.T) {
	t.Parallel()
	x := defaultIndex(t)
	off := defaultIndexWithout(t, "missing-hints")
	page := func(x *Index, q string) *ext.Page { return keptPage(t, x, q) }
	const slack = "tell the team on slack the deploy is done"
	if p := page(x, slack); p.Hint != "" || !strings.Contains(string(p.Items[0].Object), "slack_post_message") {
		t.Errorf("%q: first %s, hint %q; want slack_post_message and no hint", slack, p.Items[0].Object, p.Hint)
	}
	if p := page(off, slack); !strings.Contains(p.Hint, "deploy") {
		t.Errorf("%q with missing-hints off: hint %q, want it to name deploy (the test shows nothing of the rule)", slack, p.Hint)
	}
	for q, product := range map[string]string{
		"create a card on trello for the launch": "trello",
		"read a file from s3":                    "s3",
	} {
		// A near miss may be kept or emptied (the fit model's word);
		// either way its hint names the product.
		p, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: q, Limit: 5})
		if err != nil {
			t.Fatalf("%q: %v", q, err)
		}
		if !strings.Contains(p.Hint, "lacks "+product) {
			t.Errorf("%q: hint %q, want it to name %s", q, p.Hint, product)
		}
	}
	// An argument value no item holds is what a tool is called with, not
	// what the catalog lacks (isValueShaped); the product beside it is
	// still named.
	for q, value := range map[string]string{
		"take a screenshot of https://kasa.io/pricing": "kasa.io",
		"add STRIPE_KEY to the vercel project env":     "STRIPE_KEY",
		"send the invoice to ana@kasa.io":              "kasa.io",
		"look up order B0936FGLQS on amazon":           "B0936FGLQS",
	} {
		if p := page(x, q); strings.Contains(p.Hint, value) {
			t.Errorf("%q: hint %q names the value %s", q, p.Hint, value)
		}
		if p := page(off, q); !strings.Contains(p.Hint, value) {
			t.Errorf("%q with missing-hints off: hint %q, want it to name %s (the test shows nothing of the rule)", q, p.Hint, value)
		}
	}
	if p := page(x, "add STRIPE_KEY to the vercel project env"); !strings.Contains(p.Hint, "vercel") {
		t.Errorf("hint %q, want it to name vercel, a product the catalog lacks", p.Hint)
	}
}

// TestHintsLeaveWordsSaidInPassing: a kept page's hint does not name a
// word the word-kind model reads as said in passing (passing-words: an
// occasion, a manner, a person written in lower case), and, with the
// rule off, does; a product beside it is still named.
func TestHintsLeaveWordsSaidInPassing(t *testing.T) {
	t.Parallel()
	x := hintsLeave(t, "passing-words", map[string][]string{
		"post a fancy message on slack to celebrate the launch":               {"fancy", "celebrate"},
		"create a jira ticket, the customer panicked about the cabin booking": {"panicked", "cabin"},
		"find hanna berg in the hubspot contacts":                             {"hanna", "berg"},
		"add the eggs to my todoist shopping list":                            {"eggs"},
	})
	if h := keptPage(t, x, "add the eggs to my todoist shopping list").Hint; !strings.Contains(h, "todoist") {
		t.Errorf("hint %q, want it to name todoist, a product the catalog lacks", h)
	}
}

// TestHintsLeaveWhatAClearFitHolds: where the fit model reads a request
// as a clear fit, the hint does not name an object that only the names
// of the caller's tools lack (fit-hints): a campaign list of an email
// marketing service is what "the marketing campaign" asks for, and "lead"
// is what the contact is tagged as; the product the catalog lacks
// (HubSpot) is still named. Nor does it name a lower-case word of another
// language the foreign table does not gloss (kaputten, averiado): the
// right first item creates the issue or lists the commits asked for.
func TestHintsLeaveWhatAClearFitHolds(t *testing.T) {
	t.Parallel()
	x := hintsLeave(t, "fit-hints", map[string][]string{
		"show the budget of the marketing campaign":                        {"marketing"},
		"tag the hubspot contact as lead":                                  {"lead"},
		"erstelle ein neues issue in github für den kaputten anmeldeknopf": {"kaputten", "anmeldeknopf"},
		"crea una issue en github sobre el botón averiado del formulario":  {"averiado"},
		"zeige mir die letzten commits im github repo, das ist dringlich":  {"dringlich"},
		"maak een nieuwe issue in github voor de kapotte inlogknop":        {"kapotte"},
	})
	if h := keptPage(t, x, "tag the hubspot contact as lead").Hint; !strings.Contains(h, "hubspot") {
		t.Errorf("hint %q, want it to name hubspot, a product the catalog lacks", h)
	}
}

// hintsLeave checks that the kept page of each request of cases has a
// hint that names none of its words, and with the rule off one that names
// each (or the test shows nothing of the rule); it returns the default
// index, every rule on.
func hintsLeave(t *testing.T, rule string, cases map[string][]string) *Index {
	t.Helper()
	x := defaultIndex(t)
	off := defaultIndexWithout(t, rule)
	for q, words := range cases {
		on, without := keptPage(t, x, q).Hint, keptPage(t, off, q).Hint
		for _, w := range words {
			if strings.Contains(on, w) {
				t.Errorf("%q: hint %q names %s", q, on, w)
			}
			if !strings.Contains(without, w) {
				t.Errorf("%q with %s off: hint %q, want it to name %s (the test shows nothing of the rule)", q, rule, without, w)
			}
		}
	}
	return x
}

// keptPage is the first five tools of a search for q, which must keep
// some.
func keptPage(t *testing.T, x *Index, q string) *ext.Page {
	t.Helper()
	p, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: q, Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Items) == 0 {
		t.Fatalf("%q: no items (hint %q), want some", q, p.Hint)
	}
	return p
}
