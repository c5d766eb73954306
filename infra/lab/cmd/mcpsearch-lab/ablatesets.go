package main

import (
	"fmt"

	"github.com/mcpsearch/mcpsearch/infra/cli"
	"github.com/mcpsearch/mcpsearch/infra/lab/eval"
)

// ablationSets are the sets of the gate's data (eval.GateFile) the
// ablation measures, every one not marked no_ablate, in the gate's order:
// their files under dir (the gate's Dir when empty), over catalog instead
// of their own when it is not empty.
func ablationSets(data, dir, catalog string) ([]ablationSet, error) {
	g, err := eval.LoadGate(data)
	if err != nil {
		return nil, fmt.Errorf("%w: --data: %w", cli.ErrUsage, err)
	}
	if dir == "" {
		dir = g.Dir
	}
	var out []ablationSet
	for _, s := range g.Sets {
		if s.NoAblate {
			continue
		}
		if s.Holdout != nil {
			return nil, fmt.Errorf("%w: --data: %s: set %s: a holdout set cannot be ablated (mark it no_ablate)", cli.ErrUsage, data, s.Name)
		}
		p := s.Paths(dir, catalog)
		out = append(out, ablationSet{s.Name, benchmark{tools: p.Tools, catalog: p.Catalog, queries: p.Queries, negatives: p.Negatives}, s.Every, s.Offset})
	}
	return out, nil
}
