package library

import (
	"fmt"
	"slices"
	"strings"
	"unicode"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// The rule for renamed items. A newer version that renames a tool mostly
// keeps its description, or changes a word of it; one that rewrites the
// description and the name at once made another item, whose old requests
// may not fit. So an item the library knows no name of takes the requests
// of a library item of its server only when their descriptions are the
// same words (Similar 1), or, both at least MinDescriptionWords long,
// share SimilarThreshold of their distinct words (Jaccard: shared over
// either's) — and the two are each other's single best match.
const (
	// SimilarThreshold is the least Similar of a match by description.
	SimilarThreshold = 0.8
	// MinDescriptionWords is the least length, in words, of two
	// descriptions that match without being the same words: short ones
	// ("List items") tell siblings apart too little.
	MinDescriptionWords = 5
)

// Similar is how alike two descriptions are, from 0 to 1: 1 when their
// words (lower case, punctuation dropped) are the same sequence;
// otherwise, when both have at least MinDescriptionWords words, the
// Jaccard similarity of their sets of words; else 0.
func Similar(a, b string) float64 {
	wa, wb := words(a), words(b)
	if len(wa) == 0 || len(wb) == 0 {
		return 0
	}
	if slices.Equal(wa, wb) {
		return 1
	}
	if len(wa) < MinDescriptionWords || len(wb) < MinDescriptionWords {
		return 0
	}
	sa, sb := set(wa), set(wb)
	shared := 0
	for w := range sa {
		if sb[w] {
			shared++
		}
	}
	return float64(shared) / float64(len(sa)+len(sb)-shared)
}

func words(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return !unicode.IsLetter(r) && !unicode.IsNumber(r) })
}

func set(ws []string) map[string]bool {
	out := make(map[string]bool, len(ws))
	for _, w := range ws {
		out[w] = true
	}
	return out
}

// Coverage is where the requests of a catalog's items come from, after
// Attach.
type Coverage struct {
	// Library is the version of the library attached ("" when none was).
	Library string
	// Own, FromLibrary and None count the items with their own requests,
	// with the library's, and with none.
	Own, FromLibrary, None int
	// ByDescription counts the items of FromLibrary matched by their
	// description (renamed), not by name.
	ByDescription int
	Servers       []ServerCoverage
}

// ServerCoverage is Coverage for one server of the catalog.
type ServerCoverage struct {
	Server string
	// Identity is the library server it was matched to ("" if none).
	Identity                              string
	Own, FromLibrary, None, ByDescription int
}

// ServersWithout are the servers none of whose items has requests.
func (c *Coverage) ServersWithout() []string {
	var out []string
	for _, s := range c.Servers {
		if s.Own+s.FromLibrary == 0 {
			out = append(out, s.Server)
		}
	}
	return out
}

// maxNamed is how many servers without requests String names.
const maxNamed = 10

// String is the build's coverage line: "requests (library V): N items
// their own, N the library's (N matched by description), N none; K
// servers without: a, b" (or "library off").
func (c *Coverage) String() string {
	lib := "library off"
	if c.Library != "" {
		lib = "library " + c.Library
	}
	line := fmt.Sprintf("requests (%s): %d items their own, %d the library's (%d matched by description), %d none",
		lib, c.Own, c.FromLibrary, c.ByDescription, c.None)
	without := c.ServersWithout()
	switch {
	case len(without) == 1:
		line += "; 1 server without: " + without[0]
	case len(without) > maxNamed:
		line += fmt.Sprintf("; %d servers without: %s and %d more (mcpsearch requests coverage lists them)", len(without), strings.Join(without[:maxNamed], ", "), len(without)-maxNamed)
	case len(without) > 1:
		line += fmt.Sprintf("; %d servers without: %s", len(without), strings.Join(without, ", "))
	}
	return line
}

// Attach gives each item of cat without requests of its own the requests
// the library l holds for it (see the package doc for the rule) and
// marks it (catalog.RequestsFromLibrary); it returns the coverage. A nil
// l attaches nothing and reports the catalog's own coverage.
func Attach(cat *catalog.Catalog, l *Library) *Coverage {
	cov := &Coverage{}
	byServer := map[string][]int{}
	for i := range cat.Items {
		byServer[cat.Items[i].Server] = append(byServer[cat.Items[i].Server], i)
	}
	for i := range cat.Servers {
		s := &cat.Servers[i]
		sc := ServerCoverage{Server: s.Name}
		if l != nil {
			if f := l.Lookup(s); f != nil {
				sc.Identity = f.Identity
				sc.ByDescription = attachServer(cat.Items, byServer[s.Name], f)
			}
		}
		for _, j := range byServer[s.Name] {
			it := &cat.Items[j]
			switch {
			case len(it.Requests) == 0:
				sc.None++
			case it.RequestsFrom == catalog.RequestsFromLibrary:
				sc.FromLibrary++
			default:
				sc.Own++
			}
		}
		cov.Own, cov.FromLibrary, cov.None, cov.ByDescription = cov.Own+sc.Own, cov.FromLibrary+sc.FromLibrary, cov.None+sc.None, cov.ByDescription+sc.ByDescription
		cov.Servers = append(cov.Servers, sc)
	}
	if l != nil {
		cov.Library = l.Version()
	}
	return cov
}

type itemKey struct {
	kind ext.Kind
	name string
}

// attachServer attaches the requests of f to the items (indexes idx of
// items) of one catalog server: by name, then by description. It returns
// how many it matched by description.
func attachServer(items []catalog.Item, idx []int, f *File) int {
	lib := make(map[itemKey]int, len(f.Items))
	for j, it := range f.Items {
		lib[itemKey{it.Kind, it.Name}] = j
	}
	claimed := map[int]bool{} // library items whose name an item carries
	var pending []int
	for _, i := range idx {
		it := &items[i]
		j, ok := lib[itemKey{it.Kind, it.UpstreamName}]
		if ok {
			claimed[j] = true
		}
		switch {
		case len(it.Requests) > 0:
		case ok:
			give(it, f.Items[j])
		default:
			pending = append(pending, i)
		}
	}
	matched := matchByDescription(items, pending, f.Items, claimed)
	for i, j := range matched {
		give(&items[i], f.Items[j])
	}
	return len(matched)
}

func give(it *catalog.Item, from Item) {
	it.Requests = slices.Clone(from.Requests)
	it.RequestsFrom = catalog.RequestsFromLibrary
}

// matchByDescription pairs items (indexes pending) with unclaimed library
// items of the same kind whose descriptions are Similar at least
// SimilarThreshold, each pair the single best match of both sides. It
// returns item index → library item index.
func matchByDescription(items []catalog.Item, pending []int, lib []Item, claimed map[int]bool) map[int]int {
	type best struct {
		score  float64
		other  int
		unique bool
	}
	itemBest, libBest := map[int]*best{}, map[int]*best{}
	note := func(m map[int]*best, k, other int, score float64) {
		b := m[k]
		switch {
		case b == nil:
			m[k] = &best{score: score, other: other, unique: true}
		case score > b.score:
			*b = best{score: score, other: other, unique: true}
		case score == b.score:
			b.unique = false
		}
	}
	for _, i := range pending {
		for j, li := range lib {
			if claimed[j] || li.Kind != items[i].Kind {
				continue
			}
			if s := Similar(items[i].Description, li.Description); s >= SimilarThreshold {
				note(itemBest, i, j, s)
				note(libBest, j, i, s)
			}
		}
	}
	out := map[int]int{}
	for i, b := range itemBest {
		if lb := libBest[b.other]; b.unique && lb.unique && lb.other == i {
			out[i] = b.other
		}
	}
	return out
}
