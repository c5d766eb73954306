package eval

import (
	"fmt"
	"strings"
)

// A wrapped variant is a set's queries put inside the words people wrap
// a task in — "find …", "can you … ?", "I need to …", "bitte …" — by
// code, not by hand, so that the ranking and the no-match decision can be
// held to reading the task, not its wrapper (issue 36; eval
// --wrap-variant, --wrap). A query of a language without wrappers here is
// kept as it is, so that the variant's figures compare with the set's.

// Wrapper is words put around a task: Before it and After it, for
// queries of language Lang.
type Wrapper struct {
	Lang, Before, After string
}

// Name is the wrapper as --wrap names it: its words around an ellipsis,
// after its language and a colon unless English ("can you …?", "pt: por
// favor …").
func (w Wrapper) Name() string {
	name := strings.TrimSpace(w.Before + "…" + w.After)
	if w.Lang != "en" {
		name = w.Lang + ": " + name
	}
	return name
}

// Wrap puts text inside the wrapper.
func (w Wrapper) Wrap(text string) string { return w.Before + text + w.After }

// Wrappers are the wrappers of each language the sets are written in:
// searching, asking, needing, wanting and politeness, as questions and
// as commands.
var Wrappers = []Wrapper{
	{"en", "find ", ""}, {"en", "search for ", ""}, {"en", "look for ", ""}, {"en", "help me ", ""},
	{"en", "I need to ", ""}, {"en", "can you ", "?"}, {"en", "could you please ", "?"}, {"en", "I want to ", ""},
	{"en", "please ", ""}, {"en", "how do I ", "?"}, {"en", "is there a way to ", "?"}, {"en", "I'd like to ", ""},
	{"en", "hey, can you ", " for me? thanks"}, {"en", "I'm trying to ", ""}, {"en", "what tool can I use to ", "?"},
	{"en", "quick one: ", ""}, {"en", "would you ", " please"}, {"en", "", " please"}, {"en", "", ", thanks!"},
	{"de", "bitte ", ""}, {"de", "kannst du ", "?"}, {"de", "ich möchte ", ""}, {"de", "ich muss ", ""},
	{"es", "por favor ", ""}, {"es", "¿puedes ", "?"}, {"es", "quiero ", ""}, {"es", "necesito ", ""},
	{"fr", "", " s'il te plaît"}, {"fr", "peux-tu ", " ?"}, {"fr", "je veux ", ""}, {"fr", "j'ai besoin de ", ""},
	{"pt", "por favor ", ""}, {"pt", "você pode ", "?"}, {"pt", "eu quero ", ""}, {"pt", "preciso ", ""},
	{"ja", "", "をお願いします"}, {"ja", "", "してください"}, {"ja", "", "したいです"},
}

// WrapperNamed returns the wrapper named name (Wrapper.Name).
func WrapperNamed(name string) (Wrapper, error) {
	var names []string
	for _, w := range Wrappers {
		if w.Name() == name {
			return w, nil
		}
		names = append(names, fmt.Sprintf("%q", w.Name()))
	}
	return Wrapper{}, fmt.Errorf("no wrapper %q; the wrappers: %s", name, strings.Join(names, ", "))
}

// WrapVariant returns the queries, each of a language with wrappers put
// inside one of them drawn from the seed and the query's id (so that it
// depends on no other query), the other fields unchanged; a query of a
// language without wrappers (or none given: English) is kept as it is.
func WrapVariant(queries []Query, seed uint64) []Query {
	byLang := map[string][]Wrapper{}
	for _, w := range Wrappers {
		byLang[w.Lang] = append(byLang[w.Lang], w)
	}
	out := make([]Query, len(queries))
	for i, q := range queries {
		out[i] = q
		ws := byLang[langOf(q)]
		if len(ws) == 0 {
			continue
		}
		out[i].Query = ws[typoRand(seed, q.QID).IntN(len(ws))].Wrap(q.Query)
	}
	return out
}

// WrapAll returns the queries of w's language put inside w, the others
// kept as they are.
func WrapAll(queries []Query, w Wrapper) []Query {
	out := make([]Query, len(queries))
	for i, q := range queries {
		out[i] = q
		if langOf(q) == w.Lang {
			out[i].Query = w.Wrap(q.Query)
		}
	}
	return out
}

func langOf(q Query) string {
	if q.Lang == "" {
		return "en"
	}
	return q.Lang
}
