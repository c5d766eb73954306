package e2e

import (
	"strings"
	"testing"
)

// TestIndexIsAllServed: every package under index/ is linked into the
// search function. Code that nothing serving links (a model measured for a
// later issue, an experiment) lives with the measurements in infra/lab/eval,
// where it costs neither the index's tests nor its reviewers. The one
// exception is a helper of tests, named as Go names them (…test, like
// net/http/httptest), that only tests import.
func TestIndexIsAllServed(t *testing.T) {
	t.Parallel()
	var served map[string]bool
	var indexPackages []string
	pkgs := listPackages(t)
	importedByCode := map[string]bool{}
	for _, p := range pkgs {
		if strings.HasSuffix(p.ImportPath, "test") {
			continue // a helper of tests may use another (retrievaltest, typotest)
		}
		for _, imp := range p.Imports {
			importedByCode[imp] = true
		}
	}
	for _, p := range pkgs {
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
		if strings.HasSuffix(p, "test") && !importedByCode[p] {
			continue // a helper of tests
		}
		if !served[p] {
			t.Errorf("%s is not linked into functions/search: move it out of index/ (infra/lab/eval holds measurements)", p)
		}
	}
}
