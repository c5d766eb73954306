package rules

import (
	"strings"
	"testing"
)

func TestRegistryNamesEveryRuleOnce(t *testing.T) {
	seen := map[string]bool{}
	steps := map[string]bool{"query": true, "typo": true, "retrieval": true, "rerank": true, "no-match": true}
	for _, r := range All() {
		if r.Name() == "" || r.Reason() == "" || !steps[r.Step()] {
			t.Errorf("rule %d: name %q, step %q, reason %q: want all three", r, r.Name(), r.Step(), r.Reason())
		}
		if seen[r.Name()] {
			t.Errorf("two rules are named %q", r.Name())
		}
		seen[r.Name()] = true
		if got, err := ByName(r.Name()); err != nil || got != r {
			t.Errorf("ByName(%q) = %v, %v; want %v", r.Name(), got, err, r)
		}
	}
	if len(All()) > 64 {
		t.Fatalf("%d rules do not fit a Set", len(All()))
	}
}

func TestSet(t *testing.T) {
	var none Set
	for _, r := range All() {
		if !none.On(r) {
			t.Fatalf("the zero Set switches %s off", r)
		}
	}
	s, err := Off("phrases", "no-match")
	if err != nil {
		t.Fatal(err)
	}
	if s.On(Phrases) || s.On(NoMatch) || !s.On(Typos) || s.Len() != 2 {
		t.Errorf("Off(phrases, no-match) = %v", s.Names())
	}
	if got := strings.Join(s.Names(), ","); got != "phrases,no-match" {
		t.Errorf("Names() = %q, want pipeline order", got)
	}
	if _, err := Off("phrases", "nonesuch"); err == nil || !strings.Contains(err.Error(), `"nonesuch"`) {
		t.Errorf("Off(nonesuch): %v, want an error naming it", err)
	}
}
