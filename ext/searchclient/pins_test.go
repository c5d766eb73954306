package searchclient

import "testing"

func TestNamedUnknown(t *testing.T) {
	for _, test := range []struct {
		hint  string
		names []string
		want  bool
	}{
		{"unknown: a, b", []string{"a", "b"}, true},
		{"unknown: a,b", []string{"b"}, true},
		{"unknown: a", []string{"a", "b"}, false},
		{"", nil, true},
		{"", []string{"a"}, false},
		{"no tool matches these words", []string{"a"}, false},
		{"unknown: ab", []string{"a"}, false},
	} {
		if got := namedUnknown(test.hint, test.names); got != test.want {
			t.Errorf("namedUnknown(%q, %q): got %v, want %v", test.hint, test.names, got, test.want)
		}
	}
}

func TestSelectChunks(t *testing.T) {
	long := make([]string, 120)
	for i := range long {
		long[i] = "server__tool"
	}
	chunks := selectChunks(long)
	if len(chunks) != 3 || len(chunks[0]) != 50 || len(chunks[2]) != 20 {
		t.Errorf("120 names: got chunks of %d, %d, …; want 50, 50, 20", len(chunks[0]), len(chunks[1]))
	}
	wide := []string{string(make([]byte, 3000)), string(make([]byte, 3000)), "x"}
	if got := selectChunks(wide); len(got) != 2 || len(got[1]) != 2 {
		t.Errorf("two names of 3,000 bytes and one short: got %d chunks; want 2, the second holding 2 names", len(got))
	}
}
