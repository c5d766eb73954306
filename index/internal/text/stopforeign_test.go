package text

import (
	"slices"
	"testing"
)

// TestForeignStopWords: a query that reads as German, Spanish, French or
// Portuguese loses the grammatical words the reviewed table does not list;
// an English query keeps words it shares with those lists.
func TestForeignStopWords(t *testing.T) {
	grammatical := func(q string) []string {
		var out []string
		for _, g := range ForeignWords(q) {
			if g.English == "" {
				out = append(out, g.Word)
			}
		}
		return out
	}
	for q, want := range map[string][]string{
		"envoie à notre équipe leur rapport":             {"notre", "leur"},
		"Schick ihre Nachricht an unser Team":            {"ihre", "an", "unser"},
		"¿cuándo es la reunión porque no puedo?":         {"cuándo", "es", "la", "porque", "puedo"},
		"você pode enviar mais arquivos para o cliente?": {"você", "pode", "mais", "para", "o"},
		"move the file to the recycle bin":               nil, // bin: German, and English
		"come back to the sales pipeline later":          nil, // come: Spanish, and English
	} {
		if got := grammatical(q); !slices.Equal(got, want) {
			t.Errorf("%q: grammatical words %q, want %q", q, got, want)
		}
	}
}
