package retrieval

import (
	"slices"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// TestTyposOfWords: typos the stems hide are corrected through the word
// vectors' English words, mistyped stop words are dropped, words run
// together are read as their halves.
func TestTyposOfWords(t *testing.T) {
	t.Parallel()
	x := defaultSearcher(t)
	for _, c := range []struct{ query, want string }{
		{"wirte", "save"},              // write, indexed as save; wirt is no stem to walk
		{"delte", "delet"},             // delete, not delta: more items hold it
		{"frmo", ""},                   // from, a stop word
		{"blobstorage", "blob storag"}, // two words typed without their space
		{"meetng", "meet"},
	} {
		analysed, words, _ := queryTerms(c.query, nil)
		terms, err := x.resolveTerms(ext.KindTool, analysed, words, 0)
		if err != nil {
			t.Fatal(err)
		}
		got := (&Request{Terms: terms}).TermStrings()
		if want := text.Analyze(c.want); !slices.Equal(got, want) && !(len(got) == 0 && len(want) == 0) {
			t.Errorf("%q: got terms %q, want %q", c.query, got, want)
		}
	}
}
