package text

import "testing"

func TestIsTimeWord(t *testing.T) {
	for w, want := range map[string]bool{"Thursday's": true, "mornings": true, "today": true, "weekend": true, "timeline": false, "sundae": false, "monitor": false} {
		if got := IsTimeWord(w); got != want {
			t.Errorf("IsTimeWord(%q) = %v, want %v", w, got, want)
		}
	}
}
