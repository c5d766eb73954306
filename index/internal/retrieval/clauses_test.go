package retrieval

import (
	"slices"
	"testing"
)

func TestClauses(t *testing.T) {
	t.Parallel()
	for _, test := range []struct {
		text string
		want []string
	}{
		{"list the commits of my repository and post them to slack", nil}, // a command: one clause
		{"Read the report at /root/q3.pdf. Summarise it, then email the summary to my manager and add a reminder to my calendar.",
			[]string{"Read the report at /root/q3.pdf", "Summarise it", "email the summary to my manager", "add a reminder to my calendar"}},
		{"Please perform an analysis of the audio file: beat tracking, MFCC extraction, and chroma CQT calculation.",
			[]string{"Please perform an analysis of the audio file", "beat tracking", "MFCC extraction", "chroma CQT calculation"}},
		{"Tell me everything you know about the weather in the city of Paris today please", nil}, // one clause only
	} {
		if got := clauses(test.text); !slices.Equal(got, test.want) {
			t.Errorf("clauses(%q):\n got %q\nwant %q", test.text, got, test.want)
		}
	}
}
