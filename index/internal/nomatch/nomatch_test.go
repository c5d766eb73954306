package nomatch

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/index/internal/fit"
	"github.com/mcpsearch/mcpsearch/index/internal/rules"
)

// searches are signals of one search each, by the decision that every
// rule on reaches.
var searches = map[string]Signals{
	"no-candidates":           {},
	"unread-cjk empty":        {Candidates: true, UnreadCJK: true, Concepts: 2, Coverage: 1},
	"named-server-fits keep":  {Candidates: true, Asked: true, Concepts: 6, Errand: 1, ErrandRead: true, NamedServer: true, Coverage: 0.2, Fit: &fit.Signals{}, Lacking: []string{"geld", "monthly"}, Missing: []string{"geld"}},
	"fit-model keep":          {Candidates: true, Asked: true, Concepts: 3, Errand: 2, ErrandRead: true, Coverage: 0.9, Fit: &fit.Signals{}, Fits: true},
	"fit-model empty":         {Candidates: true, Asked: true, Concepts: 3, Errand: -2, ErrandRead: true, Coverage: 0.2, Fit: &fit.Signals{}, Lacking: []string{"pizza"}},
	"fit-window keep":         {Candidates: true, Concepts: 3, Coverage: 0.2, Window: 0.5, WindowRead: true},
	"no-match empty":          {Candidates: true, Concepts: 3, Coverage: 0.2, Window: 0.3, WindowRead: true, Lacking: []string{"s3"}},
	"near-miss-hint keep":     {Candidates: true, Concepts: 3, Coverage: 0.8, NearMiss: []string{"s3"}},
	"kept":                    {Candidates: true, Concepts: 3, Coverage: 0.8},
	"errand-model empty":      {Candidates: true, Asked: true, Concepts: 3, Errand: -1, ErrandRead: true, Coverage: 0.9},
	"fit-model empty (model)": {Candidates: true, Asked: true, Concepts: 3, Errand: 1, ErrandRead: true, Coverage: 0.9, Fit: &fit.Signals{}},
}

// TestDecideReachesEachLine: each line of List decides the search whose
// signals it is written for, with every rule on.
func TestDecideReachesEachLine(t *testing.T) {
	for want, s := range searches {
		want, _, _ = strings.Cut(want, " (")
		d := Decide(s, 0)
		if got := d.Name(); got != want {
			t.Errorf("%s: Decide reached %s", want, got)
		}
		if e := d.Explanation(); e == nil || e.Decision != want {
			t.Errorf("%s: explained as %+v", want, e)
		}
	}
}

// TestRuleOffRemovesItsLineOnly: with one rule off, Decide is the walk of
// List without that rule's lines and nothing else; named-server-fits
// decides without fit-model, errand-model without fit-model, fit-window
// without no-match being reached.
func TestRuleOffRemovesItsLineOnly(t *testing.T) {
	for _, r := range rules.All() {
		off := rules.Set(0).Without(r)
		var rest []Line
		for _, l := range List {
			if l.builtin || l.rule != r {
				rest = append(rest, l)
			}
		}
		for name, s := range searches {
			want := walk(rest, s)
			if got := Decide(s, off); got != want {
				t.Errorf("%s off, %s: Decide %+v, the list without its lines %+v", r, name, got, want)
			}
		}
	}
	s := searches["named-server-fits keep"]
	s.Fits = false
	if got := Decide(s, rules.Set(0).Without(rules.FitModel)).Name(); got != "named-server-fits keep" {
		t.Errorf("fit-model off: a named server's request reached %s, want named-server-fits keep", got)
	}
	if got := Decide(searches["fit-model empty"], rules.Set(0).Without(rules.FitModel)).Name(); got != "errand-model empty" {
		t.Errorf("fit-model off: an errand reached %s, want errand-model empty", got)
	}
}

// walk is Decide over lines, every rule on.
func walk(lines []Line, s Signals) Decision {
	for _, l := range lines {
		if l.holds(s) {
			return Decision{Rule: l.Name, Empty: l.Empty, Hint: l.hint(s), WeighedFit: l.fit, line: slices.IndexFunc(List, func(m Line) bool { return m.Name == l.Name && m.Empty == l.Empty })}
		}
	}
	return Decision{}
}

// TestHints: each line's hint, as the product says it.
func TestHints(t *testing.T) {
	for name, want := range map[string]string{
		"no-candidates empty":     NoWordMatches,
		"unread-cjk empty":        NoWordRead,
		"named-server-fits keep":  "the best match lacks geld",
		"fit-model keep":          "",
		"fit-model empty":         ErrandHint + "; the best match lacks pizza",
		"no-match empty":          NoFit + ": the best match lacks s3",
		"near-miss-hint keep":     "the best match lacks s3",
		"errand-model empty":      ErrandHint,
		"fit-model empty (model)": NoFit,
	} {
		if got := Decide(searches[name], 0).Hint; got != want {
			t.Errorf("%s: hint %q, want %q", name, got, want)
		}
	}
}

// TestEveryLineIsARule: every line but the built-in ones is a rule of
// package rules, by its name, of the no-match step, and the last line
// always decides.
func TestEveryLineIsARule(t *testing.T) {
	for _, l := range List {
		if l.builtin {
			continue
		}
		r, err := rules.ByName(l.Name)
		if err != nil || r != l.rule || r.Step() != "no-match" {
			t.Errorf("line %s: rule %v (%v), step %q", l.Name, r, err, r.Step())
		}
	}
	if last := List[len(List)-1]; !last.builtin || !last.holds(Signals{}) {
		t.Error("the last line does not always decide")
	}
	if !slices.ContainsFunc(List, func(l Line) bool { return l.Name == rules.FitModel.Name() }) {
		t.Error("no line of fit-model")
	}
}
