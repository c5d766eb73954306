package text

import "testing"

func TestWithoutArguments(t *testing.T) {
	for in, want := range map[string]string{
		"send a slack message to #deploys saying the release is out": "send a slack message to #deploys saying",
		"commit everything with the message 'fix typo'":              "commit everything with the message",
		`create a page titled "Q3 plan" in notion`:                   "create a page titled",
		"generate an image of a cat astronaut. Then post it":         "generate an image of Then post it",
		"don't delete it's branch":                                   "don't delete it's branch", // apostrophes inside words
		"what do you know about project Falcon":                      "what do you know about project Falcon",
		"list the open pull requests":                                "list the open pull requests",
		"make a new folder for the 2025 taxes":                       "make a new folder for",
		"create a remarketing list for my google ads":                "create a remarketing list for my google ads",
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
