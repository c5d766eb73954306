package text

import (
	"strings"
	"testing"
	"time"
)

func TestWithoutArguments(t *testing.T) {
	for in, want := range map[string]string{
		"send a slack message to #deploys saying the release is out": "send a slack message to #deploys saying",
		"commit everything with the message 'fix typo'":              "commit everything with the message",
		`create a page titled "Q3 plan" in notion`:                   "create a page titled",
		"generate an image of a cat astronaut. Then post it":         "generate an image of Then post it",
		"don't delete it's branch":                                   "don't delete it's branch", // apostrophes inside words
		"what do you know about project Falcon":                      "what do you know about project Falcon",
		"list the open pull requests":                                "list the open pull requests",
		"post in the marketing channel that the deck is ready":       "post in the marketing channel that",
		"please remind the team that standup moved":                  "please remind the team that",
		"can you write a sample email that shows my skills":          "can you write a sample email that shows my skills",
		"find the issue that blocks the release":                     "find the issue that blocks the release",
		"make a new folder for the 2025 taxes":                       "make a new folder for",
		"create a remarketing list for my google ads":                "create a remarketing list for my google ads",
		"«a «b» c“ d ‘e":                                             "c“ d ‘e", // unclosed marks stay
	} {
		if got := WithoutArguments(in); got != want {
			t.Errorf("WithoutArguments(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestIsTimeWord(t *testing.T) {
	for w, want := range map[string]bool{"Thursday's": true, "mornings": true, "today": true, "weekend": true, "timeline": false, "sundae": false, "monitor": false} {
		if got := IsTimeWord(w); got != want {
			t.Errorf("IsTimeWord(%q) = %v, want %v", w, got, want)
		}
	}
}

// TestWithoutQuotesLinear: a text of quotation marks that open and never
// close costs time in proportion to its length: each mark looks for its
// closing one once, not once for every mark before it (these 512 KB
// took 5 s so).
func TestWithoutQuotesLinear(t *testing.T) {
	s := strings.Repeat("«“‘", 1<<16) + " x"
	start := time.Now()
	if got := withoutQuotes(s); got != s {
		t.Errorf("withoutQuotes changed a text without closing marks")
	}
	if took := time.Since(start); took > time.Second {
		t.Errorf("withoutQuotes of %d KB of opening marks took %s, want well under a second", len(s)>>10, took)
	}
}

func TestClosingMarksOfQuotePairs(t *testing.T) {
	for open, closing := range quotePairs {
		if !isClosingMark(closing) {
			t.Errorf("%q closes %q but is no closing mark", closing, open)
		}
	}
}
