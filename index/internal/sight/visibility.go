package sight

import (
	"fmt"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/index/internal/bundle"
)

// Index is the visibility table expanded for serving: the set of every item
// of each kind, by ordinal.
type Index struct {
	sets    []catalog.Visibility
	lengths []map[string]int   // field lengths of each set
	items   [kinds][]int32     // the set of each item, by kind (kindIndex)
	counts  map[ext.Kind][]int // items of each set, by kind
}

// kinds is the number of kinds (ext.Kinds).
const kinds = 4

// kindIndex is k's place in ext.Kinds, which a search asks of every item
// it may skip, so it is a switch rather than a lookup.
func kindIndex(k ext.Kind) int {
	switch k {
	case ext.KindTool:
		return 0
	case ext.KindPrompt:
		return 1
	case ext.KindResource:
		return 2
	default:
		return 3
	}
}

// Expand checks t (a manifest's visibility table) against the item counts and expands it; a nil
// table gives a nil index (every item public).
func Expand(t *bundle.VisibilityTable, counts map[ext.Kind]int) (*Index, error) {
	if t == nil {
		return nil, nil
	}
	if len(t.FieldLengths) != len(t.Sets) {
		return nil, fmt.Errorf("manifest visibility table has the field lengths of %d sets, want %d", len(t.FieldLengths), len(t.Sets))
	}
	v := &Index{sets: t.Sets, lengths: t.FieldLengths, counts: map[ext.Kind][]int{}}
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
		v.counts[k] = setCounts(items, len(t.Sets))
		if len(items) != counts[k] {
			return nil, fmt.Errorf("manifest visibility runs cover %d of the %d %s items", len(items), counts[k], k)
		}
		v.items[kindIndex(k)] = items
	}
	return v, nil
}

func setCounts(items []int32, sets int) []int {
	counts := make([]int, sets)
	for _, set := range items {
		counts[set]++
	}
	return counts
}

// Viewer answers, for one caller, whether it sees item n of a kind.
type Viewer struct {
	v       *Index
	allowed []bool     // by set; nil: sees everything
	access  ext.Access // the caller's, when it does not see everything
	// key names the combination of sets allowed, for what is made once
	// for each (sight.go): one string a search rather than one a lookup.
	key string
}

// Viewer is the sight of a caller with a.
func (v *Index) Viewer(a ext.Access) Viewer {
	if v == nil || a.All {
		return Viewer{}
	}
	allowed, every := make([]bool, len(v.sets)), true
	for i, s := range v.sets {
		allowed[i] = a.Sees(s.Groups, s.Scopes)
		every = every && allowed[i]
	}
	if every {
		return Viewer{}
	}
	key := make([]byte, len(allowed))
	for i, ok := range allowed {
		key[i] = '0'
		if ok {
			key[i] = '1'
		}
	}
	return Viewer{v: v, allowed: allowed, access: a, key: string(key)}
}

// All reports whether the caller sees every item.
func (w Viewer) All() bool { return w.allowed == nil }

// Sees reports whether w sees item n of kind k.
func (w Viewer) Sees(k ext.Kind, n int) bool {
	return w.allowed == nil || w.allowed[w.v.items[kindIndex(k)][n]]
}

// Count is the number of items of kind k that w sees, of total.
func (w Viewer) Count(k ext.Kind, total int) int {
	if w.All() {
		return total
	}
	n := 0
	for set, c := range w.v.counts[k] {
		if w.allowed[set] {
			n += c
		}
	}
	return n
}

// SeesSet reports whether w sees the items of the visibility set.
func (w Viewer) SeesSet(set int32) bool { return w.allowed == nil || w.allowed[set] }

// SeesAny reports whether w sees items of any of the visibility sets.
func (w Viewer) SeesAny(sets []int32) bool {
	for _, set := range sets {
		if w.allowed == nil || w.allowed[set] {
			return true
		}
	}
	return false
}

// SetOf is the visibility set of item n of kind k (0, public, in a
// catalog without visibility).
func (v *Index) SetOf(k ext.Kind, n int) int32 {
	if v == nil {
		return 0
	}
	return v.items[kindIndex(k)][n]
}

// fieldLengths is the number of tokens of each indexed field over the
// documents w sees: the sum of the field lengths of the sets it sees.
func (w Viewer) fieldLengths() map[string]int {
	out := map[string]int{}
	for set, lengths := range w.v.lengths {
		for f, n := range lengths {
			if w.allowed[set] {
				out[f] += n
			} else if _, ok := out[f]; !ok {
				out[f] = 0 // every field has an entry: BM25 requires one
			}
		}
	}
	return out
}
