package e2e

import (
	"strings"
	"testing"
)

// TestIndexIsAllServed: every package under index/ is linked into the
// search function. Code that nothing serving links (a model measured for a
// later issue, an experiment) lives with the measurements in infra/eval,
// where it costs neither the index's tests nor its reviewers.
func TestIndexIsAllServed(t *testing.T) {
	var served map[string]bool
	var indexPackages []string
	for _, p := range listPackages(t) {
		if p.ImportPath == module+"/functions/search" {
			served = map[string]bool{p.ImportPath: true}
			for _, dep := range p.Deps {
				served[dep] = true
			}
		}
		if p.ImportPath == module+"/index" || strings.HasPrefix(p.ImportPath, module+"/index/") {
			indexPackages = append(indexPackages, p.ImportPath)
		}
	}
	if served == nil || len(indexPackages) < 2 {
		t.Fatalf("go list found no functions/search or only %d packages under index/", len(indexPackages))
	}
	for _, p := range indexPackages {
		if !served[p] {
			t.Errorf("%s is not linked into functions/search: move it out of index/ (infra/eval holds measurements)", p)
		}
	}
}
