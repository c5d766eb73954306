package searchclient

import (
	"cmp"
	"encoding/json"
	"math"
	"slices"
	"strings"
	"unicode"
)

// BM25 parameters of [Rank]: the usual k1 and b.
const (
	bm25K1 = 1.2
	bm25B  = 0.75
)

// Field weights of [Rank]: a word of an item's name counts this many times
// as much as a word of its description.
const (
	weightName        = 3
	weightTitle       = 2
	weightDescription = 1
	weightParameters  = 0.5
)

// Rank scores items (MCP objects: tools, prompts, resources, resource
// templates) against query and returns those that share at least one word
// with it, best first, ties in the given order.
//
// The score is BM25 (k1 1.2, b 0.75) over one bag of words per item, in
// which each word counts with the weight of the field it came from: name 3
// (a URI or URI template counts as a name), title 2, description 1, the
// names and descriptions of a tool's parameters 0.5. Words are split at
// anything that is not a letter or digit and at lower-to-upper case
// changes, lower-cased, and a trailing plural "s" is dropped; nothing else
// (no stemming, no synonyms); a few English function words ("the", "of",
// "a", …) are ignored. Each distinct query word counts once.
func Rank(query string, items []json.RawMessage) []Item {
	docs := make([]bag, len(items))
	total := 0.0
	for i, obj := range items {
		docs[i] = itemBag(obj)
		total += docs[i].length
	}
	terms := uniqueWords(query)
	avg := total / math.Max(1, float64(len(docs)))
	idf := inverseDocFreq(terms, docs)
	var out []Item
	for i, d := range docs {
		if score := bm25(terms, idf, d, avg); score > 0 {
			out = append(out, Item{Name: d.name, Object: items[i], Score: score})
		}
	}
	slices.SortStableFunc(out, func(a, b Item) int { return cmp.Compare(b.Score, a.Score) })
	return out
}

// bag is an item's weighted word counts.
type bag struct {
	name   string
	tf     map[string]float64
	length float64
}

func itemBag(obj json.RawMessage) bag {
	var o struct {
		Name        string `json:"name"`
		Title       string `json:"title"`
		Description string `json:"description"`
		URI         string `json:"uri"`
		URITemplate string `json:"uriTemplate"`
		InputSchema struct {
			Properties map[string]struct {
				Description string `json:"description"`
			} `json:"properties"`
		} `json:"inputSchema"`
	}
	json.Unmarshal(obj, &o)
	b := bag{name: cmp.Or(o.Name, o.URI, o.URITemplate), tf: map[string]float64{}}
	b.add(o.Name+" "+o.URI+" "+o.URITemplate, weightName)
	b.add(o.Title, weightTitle)
	b.add(o.Description, weightDescription)
	for name, p := range o.InputSchema.Properties {
		b.add(name+" "+p.Description, weightParameters)
	}
	return b
}

func (b *bag) add(text string, weight float64) {
	for _, w := range words(text) {
		b.tf[w] += weight
		b.length += weight
	}
}

// inverseDocFreq is BM25's idf of each term: ln(1 + (N - df + 0.5) / (df + 0.5)).
func inverseDocFreq(terms []string, docs []bag) map[string]float64 {
	idf := map[string]float64{}
	n := float64(len(docs))
	for _, t := range terms {
		df := 0.0
		for _, d := range docs {
			if d.tf[t] > 0 {
				df++
			}
		}
		idf[t] = math.Log(1 + (n-df+0.5)/(df+0.5))
	}
	return idf
}

func bm25(terms []string, idf map[string]float64, d bag, avg float64) float64 {
	score := 0.0
	norm := bm25K1 * (1 - bm25B + bm25B*d.length/math.Max(avg, 1e-9))
	for _, t := range terms {
		if tf := d.tf[t]; tf > 0 {
			score += idf[t] * tf * (bm25K1 + 1) / (tf + norm)
		}
	}
	return score
}

// stopwords are the function words Rank ignores.
var stopwords = map[string]bool{}

func init() {
	for _, w := range strings.Fields("a an and are as at be by for from in into is it of on or than that the this to with") {
		stopwords[w] = true
	}
}

func uniqueWords(s string) []string {
	ws := slices.DeleteFunc(words(s), func(w string) bool { return stopwords[w] })
	slices.Sort(ws)
	return slices.Compact(ws)
}

// words splits s into lower-case words at non-alphanumerics and at
// lower-to-upper case changes, dropping a plural "s".
func words(s string) []string {
	var out []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			w := strings.ToLower(string(cur))
			if len(w) > 3 && strings.HasSuffix(w, "s") && !strings.HasSuffix(w, "ss") {
				w = w[:len(w)-1]
			}
			out = append(out, w)
			cur = cur[:0]
		}
	}
	for i, r := range []rune(s) {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
		case unicode.IsUpper(r) && i > 0 && len(cur) > 0 && unicode.IsLower(cur[len(cur)-1]):
			flush()
			cur = append(cur, r)
		default:
			cur = append(cur, r)
		}
	}
	flush()
	return out
}
