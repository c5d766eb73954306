package encoder

import (
	"strings"
	"testing"
)

// benchmarkTexts are a 6-word query, a 60-word tool description and a
// text past MaxTokens.
var benchmarkTexts = map[string]string{
	"query6":        "undo my last commit keep changes",
	"description60": description60,
	"worst":         strings.Repeat("a ", 2048),
}

const description60 = "Search the web with Brave and return the most relevant pages for a query, " +
	"with titles, links and short snippets. Use it for general questions, news, " +
	"articles and online sources; set count to limit the results, offset to page " +
	"through them, and freshness to prefer recent content. Safe search is on by default."

func BenchmarkEncode(b *testing.B) {
	e := mustLoad(b)
	for _, name := range []string{"query6", "description60", "worst"} {
		text := benchmarkTexts[name]
		b.Run(name, func(b *testing.B) {
			dst := make([]float32, 0, Dims)
			b.ReportAllocs()
			for b.Loop() {
				dst = e.AppendEncode(dst[:0], text)
			}
			b.ReportMetric(float64(len(e.Tokens(text))), "tokens")
		})
	}
}

func BenchmarkTokens(b *testing.B) {
	e := mustLoad(b)
	b.ReportAllocs()
	for b.Loop() {
		e.Tokens(description60)
	}
}

func BenchmarkLoad(b *testing.B) {
	for b.Loop() {
		if _, err := parse(weights); err != nil {
			b.Fatal(err)
		}
	}
}
