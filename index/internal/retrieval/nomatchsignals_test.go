package retrieval

import (
	"context"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/rank"
	"github.com/mcpsearch/mcpsearch/index/internal/rules"
)

// TestNoMatchSignalsMeasuredOnce: a search measures each signal of the
// no-match test once — the errand model's score and the fit model's word
// at most once, and the coverage of each item it reads once (as many
// coverages as items whose terms it reads) — whichever line decides, with
// every rule on and with each of the no-match rules off. Not parallel: it
// sets the package's measuring hook.
func TestNoMatchSignalsMeasuredOnce(t *testing.T) {
	src := defaultSearcher(t).Source
	queries := []string{
		"stash my changes real quick",                           // short, below the coverage bar
		"wie viel Geld liegt gerade auf Stripe",                 // names a server
		"create a github issue",                                 // fits
		"book a table for two at an italian restaurant tonight", // an errand
		"I need to find the quarterly report my colleague sent last week and summarise it for the team meeting tomorrow",
		"東京の天気",
	}
	offs := []rules.Set{0}
	for _, r := range []rules.Rule{rules.FitModel, rules.ErrandModel, rules.NamedServerFits, rules.FitWindow, rules.NoMatch, rules.NearMissHint} {
		offs = append(offs, rules.Set(0).Without(r))
	}
	defer func() { signalMeasured = nil }()
	for _, off := range offs {
		for _, text := range queries {
			counts := map[string]int{}
			signalMeasured = func(name string) { counts[name]++ }
			r, err := Read(src, ext.Query{Kind: ext.KindTool, Text: text, Limit: 10}, off)
			if err != nil {
				t.Fatal(err)
			}
			_, err = Rank(context.Background(), src, r, nil)
			if err != nil {
				t.Fatal(err)
			}
			if counts["held"] == 0 || counts["coverage"] != counts["held"] {
				t.Errorf("%q (off %v): %d coverages of %d items read, want one each (%v)", text, off.Names(), counts["coverage"], counts["held"], counts)
			}
			for _, once := range []string{"errand", "fit", "near-miss"} {
				if counts[once] > 1 {
					t.Errorf("%q (off %v): %s measured %d times, want at most once", text, off.Names(), once, counts[once])
				}
			}
		}
	}
}

// TestValueShapedLabels: the labels that have the shape of an argument
// value, which a kept page's hint never names, and products and words
// that do not, in the request they were written in.
func TestValueShapedLabels(t *testing.T) {
	for _, test := range []struct {
		label, written string
		want           bool
	}{
		{"kasa.io", "send the invoice to ana@kasa.io", true},
		{"berg.se", "email hanna@berg.se the report", true},
		{"example.com", "summarise https://example.com please", true},
		{"app.ts", "deploy app.ts to staging", true},
		{"report", "save it to /root/docs/report.md", true},
		{"STRIPE_KEY", "add STRIPE_KEY to vercel", true},
		{"B0936FGLQS", "order B0936FGLQS on amazon", true},
		{"INV-2041", "pay INV-2041", true},
		{"monday.com", "create a board on monday.com", false},
		{"Rocket.Chat", "post on Rocket.Chat", false},
		{"node.js", "upgrade node.js", false},
		{"s3", "read a file from s3", false},
		{"ec2", "list ec2 instances", false},
		{"office365", "sync office365 mail", false},
		{"Stripe", "refund on Stripe", false},
		{"flight", "book a flight", false},
		{"node_modules", "clean node_modules", false},
		{"2024", "sales of 2024", false},
	} {
		if got := isValueShaped(test.label, addressesOf(test.written)); got != test.want {
			t.Errorf("isValueShaped(%q, %q) = %v, want %v", test.label, test.written, got, test.want)
		}
	}
}

// TestJoinedItemsNameNoServerThatFits: an item that joined the window
// because the query names its server (named-server-items) is not evidence
// that the server fits the request (named-server-fits): only an item
// that ranked among the first nomatch.FitWindow on its own score is.
// Without the guard, everyday's off-catalog test no-match fell .667 →
// .651 with named-server-items on.
func TestJoinedItemsNameNoServerThatFits(t *testing.T) {
	t.Parallel()
	lifted := func(named bool) rank.Candidate {
		return rank.Candidate{ID: "slack/post", Server: "slack", Named: named, Signals: &rank.Signals{ServerScore: 0.4}}
	}
	other := rank.Candidate{ID: "lark/send", Server: "lark", Signals: &rank.Signals{}}
	if !namesServer([]rank.Candidate{other, lifted(false)}) {
		t.Error("a named server's item ranked on its own score: namesServer false, want true")
	}
	if namesServer([]rank.Candidate{other, lifted(true)}) {
		t.Error("a named server's item that only joined the window: namesServer true, want false")
	}
	joined, window := joinNamed([]rank.Candidate{other}, 1, []rank.Candidate{lifted(false)})
	if window != 2 || !joined[1].Named {
		t.Errorf("joinNamed: window %d, %+v; want the joined item marked Named", window, joined)
	}
}
