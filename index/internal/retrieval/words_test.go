package retrieval

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/rules"
)

// TestWordsRememberTheirOrigin: each query pass's words are marked with
// the pass and placed at the caller's word they follow or replace; the
// caller's words keep their own place; a pass switched off adds nothing.
func TestWordsRememberTheirOrigin(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		query string
		want  []string   // text/origin/after of each word
		off   rules.Rule // a pass switched off: none of its words
		pass  Origin
	}{
		{"read /tmp/report.pdf now", []string{"read/typed/0", "report/file name/1", "pdf/file name/1", "file/file name/1", "now/typed/2"}, rules.FileWords, FileName},
		{"erstelle ein GitHub Issue", []string{"create/foreign/0", "GitHub/typed/2", "Issue/typed/3"}, rules.ForeignGlosses, Foreign},
		{"创建 仓库", []string{"创建/typed/0", "(create/chinese/0", "found/chinese/0", "establish)/chinese/0", "仓库/typed/1", "(repository/chinese/1", "depot/chinese/1", "storehouse)/chinese/1"}, rules.ChineseGlosses, Chinese},
		{"schedule a meeting", []string{"schedule/typed/0", "a/typed/1", "meeting/typed/2", "event/expansion/2"}, rules.QueryExpansions, Expansion},
		{"set an out of office reply", []string{"set/typed/0", "an/typed/1", "out/typed/2", "of/typed/3", "office/typed/4", "automatic/phrase/4", "reply/typed/5", "settings/phrase/5", "reply/phrase/5"}, rules.Phrases, Phrase},
	} {
		_, words := readWords(c.query, 0)
		if got := wordStrings(words); !slices.Equal(got, c.want) {
			t.Errorf("%q: words %q, want %q", c.query, got, c.want)
		}
		_, without := readWords(c.query, rules.Set(0).Without(c.off))
		for _, w := range without {
			if w.Origin == c.pass {
				t.Errorf("%q with %s off: word %q of that pass", c.query, c.off, w.Text)
			}
		}
	}
}

func wordStrings(ws []Word) []string {
	out := make([]string, len(ws))
	for i, w := range ws {
		out[i] = fmt.Sprintf("%s/%s/%d", w.Text, w.Origin, w.After)
	}
	return out
}

// TestRequestIsReadOnce: the request holds what every later step reads of
// the caller's text — its terms with their origins (a correction among
// them), the concepts the no-match test weighs, and the grammar re-ranking
// reads — and explanations name where a term the caller did not type comes
// from.
func TestRequestIsReadOnce(t *testing.T) {
	t.Parallel()
	src := DefaultSource(t)
	q := ext.Query{Kind: ext.KindTool, Text: ReadText("wirte an out of office reply"), Limit: 3}
	r, err := Read(src, q, 0)
	if err != nil {
		t.Fatal(err)
	}
	origins := map[string]Origin{}
	for _, term := range r.Terms {
		origins[term.Term] = term.Origin
	}
	if origins["save"] != Correction || origins["automat"] != Phrase || origins["repli"] != Typed {
		t.Errorf("term origins %v: want save a correction (of wirte), automat a phrase's, repli typed", origins)
	}
	var labels []string
	for _, c := range r.Concepts {
		labels = append(labels, c.Label+"/"+c.Origin.String())
	}
	if !slices.Contains(labels, "out of office/phrase") || !slices.Contains(labels, "reply/typed") {
		t.Errorf("concepts %q: want the phrase and the caller's reply", labels)
	}
	if !r.Grammar.Command() || r.Grammar.Words != 6 {
		t.Errorf("grammar %+v: want a command of 6 words", r.Grammar)
	}
	res, err := Rank(context.Background(), src, r, nil)
	if err != nil {
		t.Fatal(err)
	}
	explained, err := Explain(context.Background(), src, q.Kind, res, res.Candidates[:1])
	if err != nil {
		t.Fatal(err)
	}
	var marked []string
	for _, f := range explained[0].Fields {
		for _, term := range f.Terms {
			if term.Origin != "" {
				marked = append(marked, term.Term+"/"+term.Origin)
			}
		}
	}
	if len(marked) == 0 {
		t.Errorf("explanation %s: no term marked with its origin", explained[0].Summary)
	}
}
