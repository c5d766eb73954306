package bundle

import (
	"strings"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// visibilityKey is a canonical spelling of v, for grouping equal
// visibilities.
func visibilityKey(v catalog.Visibility) string {
	return strings.Join(v.Groups, "\x00") + "\x01" + strings.Join(v.Scopes, "\x00")
}

// Visibility terms in the index: one per group and scope, or "public".
const (
	visibilityPublic = "public"
	visibilityGroup  = "g:"
	visibilityScope  = "s:"
)

// visibilityTerms are the keyword terms of v in the visibility field.
func visibilityTerms(v catalog.Visibility) []string {
	if v.Public() {
		return []string{visibilityPublic}
	}
	terms := make([]string, 0, len(v.Groups)+len(v.Scopes))
	for _, g := range v.Groups {
		terms = append(terms, visibilityGroup+g)
	}
	for _, s := range v.Scopes {
		terms = append(terms, visibilityScope+s)
	}
	return terms
}

// AccessTerms are the visibility terms a caller with a matches: public
// items, its groups and its scopes.
func AccessTerms(a ext.Access) []string {
	v := catalog.Visibility{Groups: a.Groups, Scopes: a.Scopes}
	if v.Public() {
		return []string{visibilityPublic}
	}
	return append([]string{visibilityPublic}, visibilityTerms(v)...)
}

// VisibilityTable records, in the manifest, who sees which item: the
// distinct visibilities (Sets[0] is public) and, for each kind, runs of
// consecutive items in catalog order that share one, as [count, set]
// pairs. A manifest without a table has public items only.
type VisibilityTable struct {
	Sets []catalog.Visibility  `json:"sets"`
	Runs map[ext.Kind][][2]int `json:"runs"`
	// FieldLengths holds, for each set, the number of tokens of each
	// indexed field over its items' documents (Manifest.FieldLengths, set
	// by set): a caller's BM25 averages count the sets it sees.
	FieldLengths []map[string]int `json:"fieldLengths"`
}

// visibilityTable builds the table of cat, or nil when every item is
// public.
func visibilityTable(cat *catalog.Catalog) *VisibilityTable {
	t := &VisibilityTable{Sets: []catalog.Visibility{{}}, Runs: map[ext.Kind][][2]int{}}
	ids := map[string]int{visibilityKey(catalog.Visibility{}): 0}
	restricted := false
	for _, it := range cat.Items {
		id, ok := ids[visibilityKey(it.Visibility)]
		if !ok {
			id = len(t.Sets)
			ids[visibilityKey(it.Visibility)] = id
			t.Sets = append(t.Sets, it.Visibility)
		}
		restricted = restricted || id != 0
		runs := t.Runs[it.Kind]
		if n := len(runs); n > 0 && runs[n-1][1] == id {
			runs[n-1][0]++
		} else {
			runs = append(runs, [2]int{1, id})
		}
		t.Runs[it.Kind] = runs
	}
	if !restricted {
		return nil
	}
	return t
}
