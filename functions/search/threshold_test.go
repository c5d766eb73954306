package main

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

// TestMetaThresholdTokens: auto mode's threshold in tokens, a number or a
// share of a context window, becomes characters at 2.5 a token or as
// MCPSEARCH_CHARS_PER_TOKEN says; malformed, contradicting or unused
// settings stop the start, naming the variable.
func TestMetaThresholdTokens(t *testing.T) {
	t.Parallel()
	for _, test := range []struct {
		tokens, perToken, chars string
		want                    int    // MetaThresholdChars
		refused                 string // or an error containing this
	}{
		{"", "", "", 0, ""},
		{"18000", "", "", 45000, ""},
		{"10%of180000", "", "", 45000, ""},
		{"10%of200000", "2.5", "", 50000, ""},
		{"12.5%of200000", "4", "", 100000, ""},
		{"100%of1", "0.5", "", 1, ""},
		{"0", "", "", 0, "MCPSEARCH_META_THRESHOLD_TOKENS=\"0\": want a whole number of tokens"},
		{"10%", "", "", 0, "MCPSEARCH_META_THRESHOLD_TOKENS=\"10%\""},
		{"%of1000", "", "", 0, "MCPSEARCH_META_THRESHOLD_TOKENS"},
		{"0%of1000", "", "", 0, "MCPSEARCH_META_THRESHOLD_TOKENS"},
		{"10 %of1000", "", "", 0, "MCPSEARCH_META_THRESHOLD_TOKENS"},
		{"10%OF1000", "", "", 0, "MCPSEARCH_META_THRESHOLD_TOKENS"},
		{"1e4", "", "", 0, "MCPSEARCH_META_THRESHOLD_TOKENS"},
		{"10.%of1000", "", "", 0, "MCPSEARCH_META_THRESHOLD_TOKENS"},
		{"1000", ".5", "", 0, "MCPSEARCH_CHARS_PER_TOKEN=\".5\": want a decimal number from 0.5 to 10"},
		{"1000", "11", "", 0, "MCPSEARCH_CHARS_PER_TOKEN"},
		{"1000", "", "4000", 0, "MCPSEARCH_META_THRESHOLD_CHARS and MCPSEARCH_META_THRESHOLD_TOKENS are both set"},
		{"", "2.5", "", 0, "MCPSEARCH_CHARS_PER_TOKEN is set but MCPSEARCH_META_THRESHOLD_TOKENS is not"},
	} {
		c, err := configFrom(map[string]string{"MCPSEARCH_META_THRESHOLD_TOKENS": test.tokens,
			"MCPSEARCH_CHARS_PER_TOKEN": test.perToken, "MCPSEARCH_META_THRESHOLD_CHARS": test.chars})
		switch {
		case test.refused == "" && (err != nil || c.MetaThresholdChars != test.want):
			t.Errorf("tokens %q at %q: got %d, %v; want %d characters", test.tokens, test.perToken, c.MetaThresholdChars, err, test.want)
		case test.refused != "" && (err == nil || !strings.Contains(err.Error(), test.refused)):
			t.Errorf("tokens %q at %q, chars %q: got %v, want an error containing %q", test.tokens, test.perToken, test.chars, err, test.refused)
		}
	}
}

// TestListModeTokens: auto mode compares the tool list with a threshold
// in tokens, through the Lambda adapter.
func TestListModeTokens(t *testing.T) {
	idx := mustGatewayIndex(t, nil)
	all := idx.Manifest().Counts[ext.KindTool]
	for _, test := range []struct {
		env  map[string]string
		want int
	}{
		{map[string]string{"MCPSEARCH_META_THRESHOLD_TOKENS": "10%of400"}, 2}, // 100 characters: the meta tools
		{map[string]string{"MCPSEARCH_META_THRESHOLD_TOKENS": "40", "MCPSEARCH_CHARS_PER_TOKEN": "2.5"}, 2},
		{map[string]string{"MCPSEARCH_META_THRESHOLD_TOKENS": "10%of200000", "MCPSEARCH_CHARS_PER_TOKEN": "4"}, all},
	} {
		test.env["MCPSEARCH_LIST_MODE"] = "auto"
		h, err := newGatewayHandler(t, idx, test.env)
		if err != nil {
			t.Fatal(err)
		}
		if got := toolNames(t, lambdaCall(t, h, context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))); len(got) != test.want {
			t.Errorf("%v: got %d tools, want %d", test.env, len(got), test.want)
		}
	}
}
