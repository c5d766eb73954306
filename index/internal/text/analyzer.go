package text

import (
	"errors"
	"sync"

	"github.com/blevesearch/bleve/v2/analysis"
	"github.com/blevesearch/bleve/v2/analysis/analyzer/custom"
	"github.com/blevesearch/bleve/v2/analysis/lang/cjk"
	"github.com/blevesearch/bleve/v2/analysis/lang/en"
	"github.com/blevesearch/bleve/v2/analysis/token/porter"
	"github.com/blevesearch/bleve/v2/analysis/tokenizer/unicode"
	"github.com/blevesearch/bleve/v2/mapping"
	"github.com/blevesearch/bleve/v2/registry"
)

// Names of the analysis components. A bundle's mapping records them, and
// bleve looks them up in its process-wide registry when it opens the
// bundle: [AddTo] (and so [Analyzer]) registers the token filters of this
// package first, once per process.
const (
	AnalyzerName     = "mcp_text"
	filterNameSplit  = "mcp_name_split"
	filterSynonyms   = "mcp_synonyms"
	filterCJKBigrams = "mcp_cjk_bigrams"
)

// register adds the token filters of this package to bleve's registry, on
// first use; it fails if the stop words do not load or another package
// took a filter's name.
var register = sync.OnceValue(func() error {
	if _, err := stopWords(); err != nil {
		return err
	}
	return errors.Join(
		registry.RegisterTokenFilter(filterNameSplit, func(map[string]any, *registry.Cache) (analysis.TokenFilter, error) {
			return nameSplitFilter{}, nil
		}),
		registry.RegisterTokenFilter(filterSynonyms, func(map[string]any, *registry.Cache) (analysis.TokenFilter, error) {
			return synonymFilter{synonyms()}, nil
		}),
	)
})

// AddTo registers the token filters (once per process) and adds the text
// analyzer to m, under AnalyzerName: Unicode words, identifiers split
// (names.go), CJK width folding and bigrams, possessives and stop words
// dropped, Porter stems, synonyms folded (synonyms.go). Single ideographs
// are not kept beside their bigrams (no better on the benchmarks, and more
// terms: the technique log of index/README.md).
func AddTo(m *mapping.IndexMappingImpl) error {
	if err := register(); err != nil {
		return err
	}
	if err := m.AddCustomTokenFilter(filterCJKBigrams, map[string]any{
		"type": cjk.BigramName, "output_unigram": false,
	}); err != nil {
		return err
	}
	return m.AddCustomAnalyzer(AnalyzerName, map[string]any{
		"type":          custom.Name,
		"tokenizer":     unicode.Name,
		"token_filters": []string{filterNameSplit, cjk.WidthName, filterCJKBigrams, en.PossessiveName, en.StopName, porter.Name, filterSynonyms},
	})
}

// Analyzer returns the text analyzer, built on first use. Its error is the
// one every entry point of the index returns (Build, Open): past them, the
// analyzer exists.
func Analyzer() (analysis.Analyzer, error) { return analyzer() }

var analyzer = sync.OnceValues(func() (analysis.Analyzer, error) {
	m := mapping.NewIndexMapping()
	if err := AddTo(m); err != nil {
		return nil, err
	}
	a := m.AnalyzerNamed(AnalyzerName)
	if a == nil {
		return nil, errors.New("text: analyzer " + AnalyzerName + " not built")
	}
	return a, nil
})

// Tokens returns the tokens of text under the text analyzer, in order,
// or none if the analyzer could not be built (see Analyzer).
func Tokens(text string) analysis.TokenStream {
	a, err := Analyzer()
	if err != nil {
		return nil
	}
	return a.Analyze([]byte(text))
}

// Analyze returns the distinct terms of text under the text analyzer, in
// the order of their first token.
func Analyze(text string) []string {
	var terms []string
	seen := map[string]bool{}
	for _, tok := range Tokens(text) {
		if t := string(tok.Term); !seen[t] {
			seen[t] = true
			terms = append(terms, t)
		}
	}
	return terms
}

// WordsAsWritten maps each term of text under the text analyzer to the
// word of text it was first analysed from, so that what is said to the
// caller is in the caller's own words (fact, not its stem "fact"; memory,
// not "memori").
func WordsAsWritten(text string) map[string]string {
	return TermsAsWritten(Tokens(text), text, nil)
}

// TermsAsWritten is WordsAsWritten of toks, the tokens of text, for terms
// only (nil: every term): what a query's first terms were written as,
// without analysing it twice.
func TermsAsWritten(toks analysis.TokenStream, text string, terms []string) map[string]string {
	var only map[string]bool
	if terms != nil {
		only = make(map[string]bool, len(terms))
		for _, t := range terms {
			only[t] = true
		}
	}
	out := make(map[string]string, len(terms))
	for _, tok := range toks {
		if only != nil && !only[string(tok.Term)] {
			continue
		}
		t := string(tok.Term)
		if _, ok := out[t]; !ok && tok.Start >= 0 && tok.End <= len(text) && tok.Start < tok.End {
			out[t] = text[tok.Start:tok.End]
		}
	}
	return out
}
