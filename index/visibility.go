package index

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/mcpsearch/mcpsearch/ext"
)

// Visibility restricts who sees an item: members of any of Groups, and
// holders of any of Scopes. The zero Visibility is public.
//
// A server file restricts all its items with its "visibility" key; an item
// restricts (or re-restricts) itself with
// _meta["io.github.mcpsearch/visibility"], which replaces the server's:
//
//	{"server": "payroll", "visibility": {"groups": ["hr"]}, "tools": [
//	  {"name": "run_payroll", "_meta": {"io.github.mcpsearch/visibility": {"groups": ["hr-admin"], "scopes": ["payroll:write"]}}, …}]}
//
// The item key is removed from the object clients see.
type Visibility struct {
	Groups []string `json:"groups,omitempty"`
	Scopes []string `json:"scopes,omitempty"`
}

// MetaVisibility is the _meta key of an item's own visibility.
const MetaVisibility = "io.github.mcpsearch/visibility"

// Public reports whether v restricts nothing.
func (v Visibility) Public() bool { return len(v.Groups) == 0 && len(v.Scopes) == 0 }

// key is a canonical spelling of v, for grouping equal visibilities.
func (v Visibility) key() string {
	return strings.Join(v.Groups, "\x00") + "\x01" + strings.Join(v.Scopes, "\x00")
}

// Visibility terms in the index: one per group and scope, or "public".
const (
	visibilityPublic = "public"
	visibilityGroup  = "g:"
	visibilityScope  = "s:"
)

// terms are the keyword terms of v in the visibility field.
func (v Visibility) terms() []string {
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

// accessTerms are the visibility terms a caller with a matches: public
// items, its groups and its scopes.
func accessTerms(a ext.Access) []string {
	v := Visibility{Groups: a.Groups, Scopes: a.Scopes}
	if v.Public() {
		return []string{visibilityPublic}
	}
	return append([]string{visibilityPublic}, v.terms()...)
}

// maxVisibilityName bounds a group or scope name.
const maxVisibilityName = 256

// parseVisibility validates a visibility object; field names it in errors.
// An absent or null object is public.
func parseVisibility(raw json.RawMessage) (Visibility, string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return Visibility{}, "", nil
	}
	var obj map[string]json.RawMessage
	if bytes.TrimSpace(raw)[0] != '{' || json.Unmarshal(raw, &obj) != nil {
		return Visibility{}, "", errors.New(`want an object {"groups": [...], "scopes": [...]}`)
	}
	var v Visibility
	for key, val := range obj {
		var list *[]string
		switch key {
		case "groups":
			list = &v.Groups
		case "scopes":
			list = &v.Scopes
		default:
			return Visibility{}, key, errors.New("unknown field: want groups or scopes")
		}
		names, field, err := parseNames(val)
		if err != nil {
			return Visibility{}, key + field, err
		}
		*list = names
	}
	if v.Public() {
		return Visibility{}, "", errors.New("names no group and no scope: omit it to make the items public")
	}
	return v, "", nil
}

// parseNames validates a list of group or scope names and returns it
// sorted and deduplicated.
func parseNames(raw json.RawMessage) ([]string, string, error) {
	var names []string
	if json.Unmarshal(raw, &names) != nil {
		return nil, "", errors.New("want an array of strings")
	}
	for i, n := range names {
		if n == "" || len(n) > maxVisibilityName || strings.IndexFunc(n, invalidNameRune) >= 0 {
			return nil, fmt.Sprintf("[%d]", i), fmt.Errorf("%q is not a group or scope name (1 to %d characters, no spaces or control characters)", n, maxVisibilityName)
		}
	}
	slices.Sort(names)
	return slices.Compact(names), "", nil
}

func invalidNameRune(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }

// itemVisibility takes an item's own visibility out of its _meta: it
// returns the visibility (ok false when the item has none) and the object
// without the key.
func itemVisibility(obj json.RawMessage) (v Visibility, ok bool, out json.RawMessage, field string, err error) {
	var probe struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(obj, &probe) != nil || probe.Meta == nil {
		return Visibility{}, false, obj, "", nil
	}
	raw, ok := probe.Meta[MetaVisibility]
	if !ok {
		return Visibility{}, false, obj, "", nil
	}
	field = "_meta." + MetaVisibility
	v, sub, err := parseVisibility(raw)
	if err == nil && v.Public() {
		err = errors.New("null: omit it to use the server's visibility")
	}
	if err != nil {
		return Visibility{}, false, nil, joinField(field, sub), err
	}
	out, err = withoutMetaKey(obj, MetaVisibility)
	return v, true, out, field, err
}

func joinField(field, sub string) string {
	if sub == "" {
		return field
	}
	if sub[0] == '[' {
		return field + sub
	}
	return field + "." + sub
}

// withoutMetaKey returns obj without _meta[key] (and without _meta if that
// leaves it empty).
func withoutMetaKey(obj json.RawMessage, key string) (json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(obj, &m); err != nil {
		return nil, err
	}
	var meta map[string]json.RawMessage
	if err := json.Unmarshal(m["_meta"], &meta); err != nil {
		return nil, err
	}
	delete(meta, key)
	delete(m, "_meta")
	if len(meta) > 0 {
		m["_meta"], _ = json.Marshal(meta)
	}
	return json.Marshal(m)
}

// VisibilityTable records, in the manifest, who sees which item: the
// distinct visibilities (Sets[0] is public) and, for each kind, runs of
// consecutive items in catalog order that share one, as [count, set]
// pairs. A manifest without a table has public items only.
type VisibilityTable struct {
	Sets []Visibility          `json:"sets"`
	Runs map[ext.Kind][][2]int `json:"runs"`
}

// visibilityTable builds the table of cat, or nil when every item is
// public.
func visibilityTable(cat *Catalog) *VisibilityTable {
	t := &VisibilityTable{Sets: []Visibility{{}}, Runs: map[ext.Kind][][2]int{}}
	ids := map[string]int{Visibility{}.key(): 0}
	restricted := false
	for _, it := range cat.Items {
		id, ok := ids[it.Visibility.key()]
		if !ok {
			id = len(t.Sets)
			ids[it.Visibility.key()] = id
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

// visibilityIndex is the table expanded for serving: the set of every item
// of each kind, by ordinal.
type visibilityIndex struct {
	sets  []Visibility
	items map[ext.Kind][]int32
}

// expand checks t against the item counts and expands it; a nil table
// gives a nil index (every item public).
func (t *VisibilityTable) expand(counts map[ext.Kind]int) (*visibilityIndex, error) {
	if t == nil {
		return nil, nil
	}
	v := &visibilityIndex{sets: t.Sets, items: map[ext.Kind][]int32{}}
	for _, k := range ext.Kinds {
		items := make([]int32, 0, counts[k])
		for _, run := range t.Runs[k] {
			if run[0] < 0 || run[1] < 0 || run[1] >= len(t.Sets) || len(items)+run[0] > counts[k] {
				return nil, fmt.Errorf("manifest visibility runs of %s do not fit its %d items and %d sets", k, counts[k], len(t.Sets))
			}
			for range run[0] {
				items = append(items, int32(run[1]))
			}
		}
		if len(items) != counts[k] {
			return nil, fmt.Errorf("manifest visibility runs cover %d of the %d %s items", len(items), counts[k], k)
		}
		v.items[k] = items
	}
	return v, nil
}

// viewer answers, for one caller, whether it sees item n of a kind.
type viewer struct {
	v       *visibilityIndex
	allowed []bool // by set; nil: sees everything
}

func (v *visibilityIndex) viewer(a ext.Access) viewer {
	if v == nil || a.All {
		return viewer{}
	}
	allowed, every := make([]bool, len(v.sets)), true
	for i, s := range v.sets {
		allowed[i] = a.Sees(s.Groups, s.Scopes)
		every = every && allowed[i]
	}
	if every {
		return viewer{}
	}
	return viewer{v: v, allowed: allowed}
}

// all reports whether the caller sees every item.
func (w viewer) all() bool { return w.allowed == nil }

func (w viewer) sees(k ext.Kind, n int) bool {
	return w.allowed == nil || w.allowed[w.v.items[k][n]]
}

// seesAny reports whether w sees items of any of the visibility sets.
func (w viewer) seesAny(sets []int32) bool {
	for _, set := range sets {
		if w.allowed == nil || w.allowed[set] {
			return true
		}
	}
	return false
}

// setOf is the visibility set of item n of kind k (0, public, in a
// catalog without visibility).
func (v *visibilityIndex) setOf(k ext.Kind, n int) int32 {
	if v == nil {
		return 0
	}
	return v.items[k][n]
}
