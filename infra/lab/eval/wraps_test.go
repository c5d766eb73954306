package eval

import (
	"strings"
	"testing"
)

// TestWrapVariant: each query is put inside a wrapper of its language,
// drawn from the seed and its id alone (the same whatever the other
// queries), its other fields kept; a language without wrappers is kept as
// written; a set of requests meets many wrappers, and another seed draws
// others.
func TestWrapVariant(t *testing.T) {
	qs := loadSet(t, everydayPath)
	a, b := WrapVariant(qs, 1), WrapVariant(qs, 1)
	used := map[string]bool{}
	for i, q := range a {
		if q.Query != b[i].Query {
			t.Fatalf("%s: two draws differ: %q, %q", q.QID, q.Query, b[i].Query)
		}
		if q.QID != qs[i].QID || q.Lang != qs[i].Lang {
			t.Errorf("%s: fields changed", q.QID)
		}
		if !strings.Contains(q.Query, qs[i].Query) {
			t.Errorf("%s: the variant does not hold the request", q.QID)
		}
		if q.Query == qs[i].Query && langOf(q) != "zh" {
			t.Errorf("%s (%s): not wrapped", q.QID, q.Lang)
		}
		used[strings.Replace(q.Query, qs[i].Query, "…", 1)] = true
	}
	if len(used) < 20 {
		t.Errorf("%d wrappers used over %d requests, want at least 20", len(used), len(qs))
	}
	if one := WrapVariant(qs[3:4], 1); one[0].Query != a[3].Query {
		t.Errorf("a query's variant depends on the others: %q alone, %q in the set", one[0].Query, a[3].Query)
	}
	other := WrapVariant(qs, 2)
	same := 0
	for i := range other {
		if other[i].Query == a[i].Query {
			same++
		}
	}
	if same > len(qs)/4 {
		t.Errorf("seeds 1 and 2 agree on %d of %d queries", same, len(qs))
	}
}

func TestWrapAll(t *testing.T) {
	w, err := WrapperNamed("can you …?")
	if err != nil {
		t.Fatal(err)
	}
	got := WrapAll([]Query{{QID: "a", Query: "open a PR"}, {QID: "b", Query: "öffne einen PR", Lang: "de"}}, w)
	if got[0].Query != "can you open a PR?" || got[1].Query != "öffne einen PR" {
		t.Errorf("got %q, %q; want the English request wrapped, the German kept", got[0].Query, got[1].Query)
	}
	if _, err := WrapperNamed("nope"); err == nil || !strings.Contains(err.Error(), `"find …"`) {
		t.Errorf("an unknown wrapper: got %v, want the wrappers listed", err)
	}
}
