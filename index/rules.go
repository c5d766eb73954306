package index

import "github.com/mcpsearch/mcpsearch/index/internal/rules"

// Rule describes one switchable rule of the retrieval pipeline (package
// index/internal/rules): its name, the step it belongs to (query, typo,
// retrieval, rerank, no-match) and why it exists.
type Rule struct {
	Name, Step, Reason string
}

// Rules lists every switchable rule of the retrieval pipeline, in the
// order of its steps.
func Rules() []Rule {
	all := rules.All()
	out := make([]Rule, len(all))
	for i, r := range all {
		out[i] = Rule{Name: r.Name(), Step: r.Step(), Reason: r.Reason()}
	}
	return out
}

// SetRulesOff switches the named rules off for every later search of x,
// and every other rule on (no names: all on, as the product serves by
// default). It is for measuring what each rule contributes (mcpsearch
// eval --ablate), and for an operator whose catalog a rule does not suit
// (the function's MCPSEARCH_RULES_OFF: errand-model for a catalog that
// serves everyday life): a search with a rule off behaves as if the rule
// had never been written. An unknown name is an error and changes nothing.
func (x *Index) SetRulesOff(names ...string) error {
	s, err := rules.Off(names...)
	if err != nil {
		return err
	}
	x.off.Store(uint64(s))
	return nil
}

// rulesOff returns the rules switched off.
func (x *Index) rulesOff() rules.Set { return rules.Set(x.off.Load()) }
