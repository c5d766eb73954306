package retrieval

import (
	"context"
	"fmt"
	"github.com/mcpsearch/mcpsearch/index/internal/segmentfile"
	"slices"
	"strings"
	"sync"
	"unicode/utf8"

	bindex "github.com/blevesearch/bleve_index_api"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/bm25"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
	"github.com/mcpsearch/mcpsearch/index/internal/sight"
	"github.com/mcpsearch/mcpsearch/index/internal/store"
)

// Filter validation. A filter naming an annotation no tool the caller may
// see carries is refused with -32602 listing the names it may use; a
// server without items of the searched kind that the caller may see is
// named in the hint of an empty page, so that the query's words are not
// blamed. A name that only hidden items carry is treated exactly as one
// that no item carries: what a caller may not see is never told apart
// from what does not exist.

// standardAnnotations are the tool annotations MCP defines, as it spells
// them, with the JSON type of their values.
var standardAnnotations = []struct{ name, kind string }{
	{"title", "a string"}, {"readOnlyHint", "a boolean"}, {"destructiveHint", "a boolean"},
	{"idempotentHint", "a boolean"}, {"openWorldHint", "a boolean"},
}

// maxListedAnnotations bounds the other annotation names an error lists.
const maxListedAnnotations = 20

// FilterNames are the names filters use, each with the visibility sets of
// the items that carry it, read from the postings once, on the first
// filter that needs them. A bundle holds one ([NewFilterNames]).
type FilterNames struct {
	vis         *sight.Index
	counts      map[ext.Kind]int
	once        sync.Once
	err         error
	servers     map[ext.Kind]map[string][]int32 // kind → server → sets
	annotations map[string][]int32              // lower-case name of a non-standard annotation → sets
}

// NewFilterNames returns the unread filter names of a bundle of counts
// items whose visibility is vis (nil: every item public).
func NewFilterNames(vis *sight.Index, counts map[ext.Kind]int) *FilterNames {
	return &FilterNames{vis: vis, counts: counts}
}

// Loaded reports whether the names have been read.
func (n *FilterNames) Loaded() bool { return n.servers != nil }

// Get returns the names, reading them from src's postings on first use.
func (n *FilterNames) Get(src Source) (*FilterNames, error) {
	n.once.Do(func() { n.err = n.read(src) })
	return n, n.err
}

func (n *FilterNames) read(src Source) (err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("%s: filter names: %w", src.Name(), err)
		}
	}()
	r := src.Reader()
	defer r.Close()
	order := src.DocOrder()
	n.servers, n.annotations = map[ext.Kind]map[string][]int32{}, map[string][]int32{}
	err = n.eachTermSets(r, order, schema.Server, func(server string) string { return server }, func(server string, k ext.Kind, set int32) {
		if n.servers[k] == nil {
			n.servers[k] = map[string][]int32{}
		}
		n.servers[k][server] = addSet(n.servers[k][server], set)
	})
	if err != nil {
		return err
	}
	return n.eachTermSets(r, order, schema.Annotations, otherAnnotation, func(name string, _ ext.Kind, set int32) {
		n.annotations[name] = addSet(n.annotations[name], set)
	})
}

// otherAnnotation is the name of the annotation term "name=value", or ""
// for the standard annotations, which every tool has.
func otherAnnotation(term string) string {
	name, _, _ := strings.Cut(term, "=")
	if standardAnnotation(name) != "" {
		return ""
	}
	return name
}

// eachTermSets calls fn for each term of field that nameOf names (not "")
// and each item holding it, with the item's kind and visibility set.
func (n *FilterNames) eachTermSets(r *segmentfile.Reader, order store.DocOrder, field string, nameOf func(term string) string, fn func(name string, k ext.Kind, set int32)) error {
	dict, err := r.FieldDict(field)
	if err != nil {
		return err
	}
	defer dict.Close()
	for {
		entry, err := dict.Next()
		if err != nil || entry == nil {
			return err
		}
		name := nameOf(entry.Term)
		if name == "" {
			continue
		}
		if err := n.eachPosting(r, order, field, entry.Term, func(k ext.Kind, set int32) { fn(name, k, set) }); err != nil {
			return err
		}
	}
}

func (n *FilterNames) eachPosting(r *segmentfile.Reader, order store.DocOrder, field, term string, fn func(k ext.Kind, set int32)) error {
	p, err := r.TermFieldReader(context.Background(), []byte(term), field, false, false, false)
	if err != nil {
		return err
	}
	defer p.Close()
	var tfd bindex.TermFieldDoc
	for {
		d, err := p.Next(&tfd)
		if err != nil || d == nil {
			return err
		}
		k, ord, ok := itemAt(int(order.Rank(uint32(bm25.DocNumber(d.ID)))), n.counts)
		if !ok {
			return fmt.Errorf("term %q of %s: a document past the catalog", term, field)
		}
		fn(k, n.vis.SetOf(k, ord))
	}
}

func addSet(sets []int32, set int32) []int32 {
	if slices.Contains(sets, set) {
		return sets
	}
	return append(sets, set)
}

// standardAnnotation returns the MCP spelling of the standard annotation
// name (in any case), or "".
func standardAnnotation(name string) string {
	for _, a := range standardAnnotations {
		if strings.EqualFold(a.name, name) {
			return a.name
		}
	}
	return ""
}

// checkAnnotations refuses an annotation filter that a caller seeing what
// w sees cannot use: on items other than tools, naming one annotation in
// two spellings, with a name none of those tools carries, or with a
// standard annotation's value of the wrong type.
func (f Filtering) checkAnnotations(src Source, q ext.Query) error {
	if len(q.Filter.Annotations) == 0 {
		return nil
	}
	if q.Kind != ext.KindTool {
		return fmt.Errorf("%w: filter.annotations applies to tools only: %s carry no annotations that can be searched", ext.ErrInvalidParams, q.Kind.ResultKey())
	}
	if err := twoSpellings(sortedKeys(q.Filter.Annotations)); err != nil {
		return err
	}
	names, err := f.Names.Get(src)
	if err != nil {
		return err
	}
	for _, name := range sortedKeys(q.Filter.Annotations) {
		if err := checkAnnotation(name, q.Filter.Annotations[name], names, f.Viewer); err != nil {
			return err
		}
	}
	return nil
}

// twoSpellings refuses a filter that names one annotation twice: names
// match in any case (readOnlyHint, READONLYHINT), so two spellings would
// be one clause twice, or two values of it that no tool has at once.
// names are sorted.
func twoSpellings(names []string) error {
	first := make(map[string]string, len(names))
	for _, name := range names {
		key := strings.ToLower(name) // as annotationTerm reads it
		if other, ok := first[key]; ok {
			return fmt.Errorf("%w: filter.annotations names one annotation twice, as %s and %s (names match in any case)",
				ext.ErrInvalidParams, echoName(other), echoName(name))
		}
		first[key] = name
	}
	return nil
}

func checkAnnotation(name string, value any, names *FilterNames, w sight.Viewer) error {
	for _, a := range standardAnnotations {
		if !strings.EqualFold(a.name, name) {
			continue
		}
		if _, isBool := value.(bool); (a.kind == "a boolean") != isBool {
			return fmt.Errorf("%w: filter.annotations.%s must be %s", ext.ErrInvalidParams, echoName(name), a.kind)
		}
		return nil
	}
	if w.SeesAny(names.annotations[strings.ToLower(name)]) {
		return nil
	}
	return fmt.Errorf("%w: filter.annotations.%s: unknown annotation (known: %s)", ext.ErrInvalidParams, echoName(name), knownAnnotations(names, w))
}

// knownAnnotations lists the annotation names a filter may use: the
// standard ones, then those of tools w sees.
func knownAnnotations(names *FilterNames, w sight.Viewer) string {
	known := make([]string, 0, len(standardAnnotations))
	for _, a := range standardAnnotations {
		known = append(known, a.name)
	}
	var others []string
	for name, sets := range names.annotations {
		if w.SeesAny(sets) {
			others = append(others, name)
		}
	}
	slices.Sort(others)
	if len(others) > maxListedAnnotations {
		others = append(others[:maxListedAnnotations], fmt.Sprintf("and %d more", len(others)-maxListedAnnotations))
	}
	return strings.Join(append(known, others...), ", ")
}

// unknownServer is a server of a filter that has no item of the searched
// kind that the caller sees, and the nearest name of one that has.
type unknownServer struct{ name, nearest string }

// maxNamedServers bounds the unknown servers a hint names (and looks up a
// nearest name for); the rest are counted. A hint thus stays short however
// many names a filter holds.
const maxNamedServers = 3

// unknownServers are the servers of q's filter that have no item of q's
// kind that w sees, the first maxNamedServers with the nearest name that w
// may search.
func (f Filtering) unknownServers(src Source, q ext.Query) ([]unknownServer, error) {
	if len(q.Filter.Servers) == 0 {
		return nil, nil
	}
	names, err := f.Names.Get(src)
	if err != nil {
		return nil, err
	}
	w := f.Viewer
	var unknown []unknownServer
	for _, s := range q.Filter.Servers {
		if !w.SeesAny(names.servers[q.Kind][s]) {
			unknown = append(unknown, unknownServer{name: s})
		}
	}
	for i := range unknown[:min(len(unknown), maxNamedServers)] {
		unknown[i].nearest = nearestServer(unknown[i].name, names.servers[q.Kind], w)
	}
	return unknown, nil
}

// filterHint is the hint of an empty page of q: the unknown servers of its
// filter, if any, then why nothing else fits (hint, which blames the
// query's words only when the filter is not to blame).
func filterHint(q ext.Query, unknown []unknownServer, hint string) string {
	if hint == NoWordMatches && (len(q.Filter.Servers) > 0 || len(q.Filter.Annotations) > 0) {
		hint = "no item that the filter keeps matches any word of the query"
	}
	if len(unknown) == 0 {
		return hint
	}
	named := make([]string, 0, maxNamedServers+1)
	for _, s := range unknown[:min(len(unknown), maxNamedServers)] {
		named = append(named, s.String())
	}
	if more := len(unknown) - len(named); more > 0 {
		named = append(named, fmt.Sprintf("%d more", more))
	}
	list := strings.Join(named, ", ")
	if len(named) > 1 {
		list = strings.Join(named[:len(named)-1], ", ") + " and " + named[len(named)-1]
	}
	out := fmt.Sprintf("filter.servers names an unknown server %s: no server of that name has %s you can search", list, q.Kind.ResultKey())
	if len(unknown) > 1 {
		out = fmt.Sprintf("filter.servers names unknown servers %s: no server of those names has %s you can search", list, q.Kind.ResultKey())
	}
	if len(unknown) == len(q.Filter.Servers) || hint == "" {
		return out
	}
	return out + "; " + hint
}

// String quotes the name, cut to ext.MaxEchoBytes, with its suggestion.
func (s unknownServer) String() string {
	quoted := ext.QuoteShort(s.name)
	if s.nearest != "" {
		quoted += fmt.Sprintf(" (did you mean %q?)", s.nearest)
	}
	return quoted
}

// echoName is a caller's name as an error repeats it: as it is, or quoted
// and cut to ext.MaxEchoBytes when longer.
func echoName(name string) string {
	if len(name) <= ext.MaxEchoBytes {
		return name
	}
	return ext.QuoteShort(name)
}

// nearestServer returns the server of servers that w sees whose name
// holds name as whole words or is held so (serverOfWords: "github" for
// mcp-github), else the one nearest name (within maxServerEdits edits),
// ignoring case; or "".
func nearestServer(name string, servers map[string][]int32, w sight.Viewer) string {
	want := strings.ToLower(name)
	if len(want) > ext.MaxEchoBytes {
		return ""
	}
	if byWords := serverOfWords(want, servers, w); byWords != "" {
		return byWords
	}
	best, bestDist := "", min(maxServerEdits, max(1, utf8.RuneCountInString(want)/3))+1
	for server, sets := range servers {
		have := strings.ToLower(server)
		if abs(utf8.RuneCountInString(have)-utf8.RuneCountInString(want)) >= bestDist || !w.SeesAny(sets) {
			continue
		}
		if d := ext.Edits(want, have); d < bestDist || (d == bestDist && best != "" && server < best) {
			best, bestDist = server, d
		}
	}
	return best
}

// serverOfWords is the shortest
// (then first) server name w may search that holds the name as whole
// words, or is held so by it: "github" for mcp-github, "mcp-open" for
// open. Words are split at '-', '_', '.' and '/'.
func serverOfWords(want string, servers map[string][]int32, w sight.Viewer) string {
	best := ""
	for server, sets := range servers {
		have := strings.ToLower(server)
		if !(holdsWords(have, want) || holdsWords(want, have)) || !w.SeesAny(sets) {
			continue
		}
		if best == "" || len(server) < len(best) || (len(server) == len(best) && server < best) {
			best = server
		}
	}
	return best
}

// holdsWords says whether name holds part, a different string, as a run
// of whole words.
func holdsWords(name, part string) bool {
	if part == "" || name == part {
		return false
	}
	isSep := func(r rune) bool { return r == '-' || r == '_' || r == '.' || r == '/' }
	for i := strings.Index(name, part); i >= 0; {
		end := i + len(part)
		before, _ := utf8.DecodeLastRuneInString(name[:i])
		after, _ := utf8.DecodeRuneInString(name[end:])
		if (i == 0 || isSep(before)) && (end == len(name) || isSep(after)) {
			return true
		}
		next := strings.Index(name[i+1:], part)
		if next < 0 {
			break
		}
		i += 1 + next
	}
	return false
}

// maxServerEdits is the most edits a suggested server name is away.
const maxServerEdits = 3

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// itemAt is the kind and ordinal of the item at a position in catalog
// order, of a bundle of counts items.
func itemAt(pos int, counts map[ext.Kind]int) (ext.Kind, int, bool) {
	for _, k := range ext.Kinds {
		if pos < counts[k] {
			return k, pos, pos >= 0
		}
		pos -= counts[k]
	}
	return "", 0, false
}
