// Package directory is the directory of servers (ext.Directory): each
// server's items by visibility set and the commonest words of its items'
// names (its topics), read once from a bundle's list of servers and meta
// records ([Read]); a caller's directory is then a pass over the servers
// and their sets ([Directory.For]).
//
// A server's About is its own description when it gives one (the
// manifest's "about"), shown to every caller who sees one of its items, as
// its name is. Otherwise it is its topics, which are words of the names of
// the items the caller sees of it: the directory a caller gets is the one
// a catalog of its own items gives, so that no word of a hidden item
// reaches it, and no withheld topic tells it that hidden items exist
// (TestDirectoryIsTheCallersOwn).
package directory

import (
	"cmp"
	"maps"
	"slices"
	"strings"
	"sync"
	"unicode"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/bundle"
	"github.com/mcpsearch/mcpsearch/index/internal/sight"
	"github.com/mcpsearch/mcpsearch/index/internal/store"
)

// maxTopics is the number of words a server's topics hold at most.
const maxTopics = 4

// Directory is what a caller's directory is made from.
type Directory struct {
	servers []server // in catalog order
}

type server struct {
	name, about string
	items       map[int32]int // visibility set → the server's items of it
	// topics counts the words of the server's item names by visibility
	// set; everyone is the topics of a caller who sees all of them.
	topics   map[int32]*topicCounter
	everyone string
}

// For is the directory of the caller w: the servers it sees an item of,
// each with the number it sees and its description or, without one, the
// topics of the items it sees.
func (d *Directory) For(w sight.Viewer) []ext.ServerEntry {
	var out []ext.ServerEntry
	for _, s := range d.servers {
		seen, all := 0, true
		for set, n := range s.items {
			if w.SeesSet(set) {
				seen += n
			} else {
				all = false
			}
		}
		if seen == 0 {
			continue
		}
		e := ext.ServerEntry{Name: s.name, About: s.about, Items: seen}
		if e.About == "" {
			e.About = s.topicsFor(w, all)
		}
		out = append(out, e)
	}
	return out
}

// Read makes the directory of a bundle's servers, of visibility vis, from
// every item's server and name, which eachMeta gives kind by kind.
func Read(servers []bundle.ServerInfo, vis *sight.Index, eachMeta func(k ext.Kind, fn func(n int, m store.Meta)) error) (*Directory, error) {
	byName := map[string]*server{}
	d := &Directory{servers: make([]server, len(servers))}
	for i, s := range servers {
		d.servers[i] = server{name: s.Name, about: s.About, items: map[int32]int{}, topics: map[int32]*topicCounter{}}
		byName[s.Name] = &d.servers[i]
	}
	for _, k := range ext.Kinds {
		if err := eachMeta(k, func(n int, m store.Meta) {
			s := byName[m.Server]
			if s == nil {
				return
			}
			set := vis.SetOf(k, n)
			s.items[set]++
			if s.topics[set] == nil {
				s.topics[set] = newTopicCounter(m.Server)
			}
			s.topics[set].add(k, m.Label)
		}); err != nil {
			return nil, err
		}
	}
	for i := range d.servers {
		d.servers[i].everyone = d.servers[i].topicsOf(func(int32) bool { return true })
	}
	return d, nil
}

// topicsFor is the server's topics for w, who sees all its items or some.
func (s *server) topicsFor(w sight.Viewer, all bool) string {
	if all {
		return s.everyone
	}
	return s.topicsOf(func(set int32) bool { return w.SeesSet(set) })
}

// topicsOf is the server's topics over the items of the visibility sets
// seen: their words counted together, as over a server of those items
// alone.
func (s *server) topicsOf(seen func(set int32) bool) string {
	merged := newTopicCounter(s.name)
	for _, set := range slices.Sorted(maps.Keys(s.topics)) {
		if seen(set) {
			merged.merge(s.topics[set])
		}
	}
	return strings.Join(merged.top(maxTopics), ", ")
}

// topicCounter counts, for one server, in how many of its items' names
// each word stands. The names of its tools are counted when it has tools,
// else those of its other items.
type topicCounter struct {
	own    map[string]bool // the words of the server's name, left out
	kind   ext.Kind        // the kind counted
	counts map[string]int
	items  int
}

func newTopicCounter(server string) *topicCounter {
	own := map[string]bool{}
	for _, w := range nameWords(server) {
		own[w] = true
	}
	return &topicCounter{own: own, counts: map[string]int{}}
}

func (c *topicCounter) add(k ext.Kind, label string) {
	if c.items > 0 && k != c.kind {
		return // the kinds come in order: tools first
	}
	c.kind = k
	c.items++
	seen := map[string]bool{}
	for _, w := range nameWords(label) {
		if !seen[w] && !c.own[w] && !stopTopic()[w] {
			seen[w] = true
			c.counts[w]++
		}
	}
}

// merge adds the counts of o, a counter of the same server, to c's: of
// the first kind either has counted (tools first, then the kinds after).
func (c *topicCounter) merge(o *topicCounter) {
	if o.items == 0 {
		return
	}
	if c.items > 0 && c.kind != o.kind {
		if slices.Index(ext.Kinds, o.kind) > slices.Index(ext.Kinds, c.kind) {
			return
		}
		c.counts, c.items = map[string]int{}, 0
	}
	c.kind = o.kind
	c.items += o.items
	for w, n := range o.counts {
		c.counts[w] += n
	}
}

// top returns the n commonest words, most items first, then in word
// order: words that several items share when there are any, a plural
// counted with its singular.
func (c *topicCounter) top(n int) []string {
	counts := foldPlurals(c.counts)
	var words []string
	for _, least := range []int{2, 1} {
		for w, count := range counts {
			if count >= least {
				words = append(words, w)
			}
		}
		if len(words) > 0 {
			break
		}
	}
	slices.SortFunc(words, func(a, b string) int {
		return cmp.Or(counts[b]-counts[a], strings.Compare(a, b))
	})
	return words[:min(n, len(words))]
}

// foldPlurals adds the count of a word ending in s (or ies) to that of
// its singular, when the singular is counted too.
func foldPlurals(counts map[string]int) map[string]int {
	out := maps.Clone(counts)
	for w, n := range counts {
		for _, one := range []string{strings.TrimSuffix(w, "s"), strings.TrimSuffix(w, "ies") + "y"} {
			if one != w && len(one) < len(w) && counts[one] > 0 {
				out[one] += n
				delete(out, w)
				break
			}
		}
	}
	return out
}

// nameWords splits a name (snake_case, kebab-case, camelCase, dotted) into
// lower-case words of at least three letters.
func nameWords(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) >= 3 {
			words = append(words, strings.ToLower(string(cur)))
		}
		cur = cur[:0]
	}
	runes := []rune(name)
	for i, r := range runes {
		switch {
		case !unicode.IsLetter(r):
			flush()
			continue
		case unicode.IsUpper(r) && i > 0 && (unicode.IsLower(runes[i-1]) || i+1 < len(runes) && unicode.IsLower(runes[i+1]) && unicode.IsUpper(runes[i-1])):
			flush()
		}
		cur = append(cur, r)
	}
	flush()
	return words
}

// stopTopic holds the words of item names that say what a tool does to
// something rather than what: verbs every server has, and filler.
var stopTopic = sync.OnceValue(func() map[string]bool {
	stop := map[string]bool{}
	for _, w := range strings.Fields(`get list create update delete remove add set search find fetch read write run
		execute new edit manage check show view retrieve post put patch make use all the and for with from into
		info detail data item tool mcp api batch bulk multiple one single current more upsert modify change
		toggle enable disable start stop take open close send load save upload download describe count move copy
		rename insert replace validate call invoke resource template prompt name type value field option
		setting config configuration`) {
		stop[w] = true
	}
	return stop
})
