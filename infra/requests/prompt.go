package requests

import (
	_ "embed"
	"hash/fnv"
	"slices"
	"strings"
	"text/template"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

//go:embed prompt.tmpl
var promptText string

var prompts = template.Must(template.New("prompt").Funcs(template.FuncMap{"join": strings.Join}).Parse(promptText))

// Bounds on what the prompt tells of an item: a model needs the gist, and
// a server file may hold descriptions of many kilobytes.
const (
	maxDescriptionRunes = 4000
	maxParams           = 40
	maxParamRunes       = 300
	maxSiblings         = 20
)

// languages are those REQUESTS.md rotates over; each item gets two.
var languages = []string{"German", "Spanish", "French", "Japanese", "Portuguese", "Chinese", "Italian", "Dutch", "Korean", "Russian", "Polish"}

// promptItem is what the "item" template tells of an item.
type promptItem struct {
	Server, About     string
	Kind, Name, Title string
	Label             string // a resource's name, beside its URI
	Description       string
	Params            []catalog.Param
	Siblings          []sibling
	Count             int
	Languages         []string
}

// sibling is another item of the server, named with its description's
// first sentence.
type sibling struct{ Name, Line string }

// systemPrompt is the instruction sent with every item.
func systemPrompt() string {
	var b strings.Builder
	if err := prompts.ExecuteTemplate(&b, "system", nil); err != nil {
		panic(err) // the template is ours and takes no data
	}
	return b.String()
}

// serverItems are the items of one server, with the words of each, from
// which an item's prompt names its siblings.
type serverItems struct {
	server catalog.Server
	items  []catalog.Item
	words  []map[string]bool
}

func newServerItems(server catalog.Server, items []catalog.Item) *serverItems {
	s := &serverItems{server: server, items: items, words: make([]map[string]bool, len(items))}
	for i, it := range items {
		s.words[i] = map[string]bool{}
		for _, w := range words(it.UpstreamName + " " + it.Title + " " + it.Description) {
			s.words[i][w] = true
		}
	}
	return s
}

// prompt is the message that asks for count requests for item i, told
// from its documentation, with its siblings.
func (s *serverItems) prompt(i, count int) (string, error) {
	it := s.items[i]
	p := promptItem{
		Server: it.Server, About: s.server.About, Kind: kindWords(it.Kind), Name: it.UpstreamName,
		Title: it.Title, Description: cut(it.Description, maxDescriptionRunes),
		Label:    labelOf(it),
		Siblings: s.siblings(i), Count: count, Languages: languagesOf(it.Name),
	}
	for _, prm := range it.Params[:min(len(it.Params), maxParams)] {
		p.Params = append(p.Params, catalog.Param{Name: prm.Name, Description: cut(prm.Description, maxParamRunes)})
	}
	var b strings.Builder
	err := prompts.ExecuteTemplate(&b, "item", p)
	return b.String(), err
}

// labelOf is the human-readable name of a resource or template, which
// its URI is not; none for a tool or prompt, whose name it is.
func labelOf(it catalog.Item) string {
	if it.Label == it.UpstreamName {
		return ""
	}
	return it.Label
}

func kindWords(k ext.Kind) string {
	if k == ext.KindResourceTemplate {
		return "resource template"
	}
	return string(k)
}

// siblings are the items of the server most like item i (sharing the
// most words of name, title and description), at most maxSiblings, in
// catalog order: those the model must tell it apart from.
func (s *serverItems) siblings(i int) []sibling {
	type scored struct{ at, shared int }
	var cands []scored
	for j := range s.items {
		if j != i {
			cands = append(cands, scored{j, overlap(s.words[i], s.words[j])})
		}
	}
	slices.SortStableFunc(cands, func(a, b scored) int { return b.shared - a.shared })
	cands = cands[:min(len(cands), maxSiblings)]
	slices.SortFunc(cands, func(a, b scored) int { return a.at - b.at })
	out := make([]sibling, len(cands))
	for k, c := range cands {
		out[k] = sibling{s.items[c.at].UpstreamName, catalog.FirstSentence(s.items[c.at].Description)}
	}
	return out
}

func overlap(a, b map[string]bool) int {
	n := 0
	for w := range a {
		if b[w] {
			n++
		}
	}
	return n
}

// languagesOf picks the two other languages of an item, by its name, so
// that they rotate over a server's items and stay the same from run to run.
func languagesOf(name string) []string {
	h := fnv.New32a()
	h.Write([]byte(name))
	n := int(h.Sum32() % uint32(len(languages)*(len(languages)-1)))
	first := n % len(languages)
	second := (first + 1 + n/len(languages)) % len(languages)
	return []string{languages[first], languages[second]}
}

// cut shortens s to at most n runes, ending with "…" when it cut.
func cut(s string, n int) string {
	s = strings.TrimSpace(s)
	if r := []rune(s); len(r) > n {
		return string(r[:n]) + "…"
	}
	return s
}
