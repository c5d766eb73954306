package catalog

import (
	"strings"
	"testing"
)

// TestAbout: a server's About is the first sentence of its serverInfo's
// description, on one line, cut after a word when long.
func TestAbout(t *testing.T) {
	long := strings.Repeat("word ", 50)
	for _, test := range []struct{ description, want string }{
		{"", ""},
		{"Weather and maps.", "Weather and maps"},
		{"Weather\n and  maps. For everyone. Really.", "Weather and maps"},
		{"Version 1.2 of the API. More.", "Version 1.2 of the API"},
		{long, strings.TrimSpace(strings.Repeat("word ", 32)) + "…"},
	} {
		if got := FirstSentence(test.description); got != test.want {
			t.Errorf("%.30q: got %q, want %q", test.description, got, test.want)
		}
	}
	cat, err := load(map[string]string{"a.json": `{"server":"a","serverInfo":{"name":"A","version":"1","description":"Does a. And b."},"tools":[]}`})
	if err != nil || cat.Servers[0].About != "Does a" {
		t.Errorf("got %+v, %v; want About \"Does a\"", cat, err)
	}
	if _, err := load(map[string]string{"a.json": `{"server":"a","serverInfo":{"description":5}}`}); err == nil || !strings.Contains(err.Error(), "description") {
		t.Errorf("a description that is not a string: got %v, want it refused", err)
	}
}
