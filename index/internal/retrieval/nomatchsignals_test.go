package retrieval

import (
	"context"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
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
