package encoder

import (
	"errors"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"
	"unicode/utf8"
)

func dotProduct(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

func TestSimilarSentencesScoreHigher(t *testing.T) {
	e := mustLoad(t)
	for _, test := range []struct{ text, similar, unrelated string }{
		{"schedule a meeting", "set up a calendar event with my team", "order a pizza"},
		{"create a pull request", "open a PR on GitHub", "what is the weather tomorrow"},
		{"deploy to kubernetes", "apply a manifest to the cluster", "knit a wool scarf"},
		{"send a slack message", "post a message in a chat channel", "list files in a directory"},
		{"read a file from disk", "open a local file and return its text", "book a flight to Paris"},
	} {
		v := e.Encode(test.text)
		similar, unrelated := dotProduct(v, e.Encode(test.similar)), dotProduct(v, e.Encode(test.unrelated))
		if similar <= unrelated {
			t.Errorf("%q: cosine %.3f with %q, not above %.3f with %q", test.text, similar, test.similar, unrelated, test.unrelated)
		}
	}
}

// TestEncodeAllocations counts allocations over allocRuns calls each.
// testing.AllocsPerRun divides the count by the runs, dropping the
// remainder, so fewer runs hide fewer stray allocations: with 3 runs, 3
// in all show; with 20 (before, 7 times the encoding), up to 19 were hidden.
func TestEncodeAllocations(t *testing.T) {
	const allocRuns = 3
	e := mustLoad(t)
	dst := make([]float32, 0, Dims)
	for _, text := range []string{"undo my last commit keep changes", description60, "Größe ＧｉｔＨｕｂ 会議"} {
		e.AppendEncode(dst, text) // warm the pool
		if n := testing.AllocsPerRun(allocRuns, func() { dst = e.AppendEncode(dst[:0], text) }); n > 0 {
			t.Errorf("AppendEncode(%.20q): %.1f allocations, want 0", text, n)
		}
		if n := testing.AllocsPerRun(allocRuns, func() { e.Encode(text) }); n > 1 {
			t.Errorf("Encode(%.20q): %.1f allocations, want 1 (the result)", text, n)
		}
	}
}

// TestWorstCaseInputs feeds query-sized texts (4,096 bytes) that are one
// word or random characters: each stays within MaxTokens and finishes.
func TestWorstCaseInputs(t *testing.T) {
	e := mustLoad(t)
	random := rand.New(rand.NewPCG(1, 2))
	var unicodeText strings.Builder
	for unicodeText.Len() < 4096-utf8.UTFMax {
		unicodeText.WriteRune(rune(random.IntN(0x10FFFF)))
	}
	for name, text := range map[string]string{
		"one word":       strings.Repeat("x", 4096),
		"one long piece": strings.Repeat("internationalization", 4096/20),
		"random unicode": unicodeText.String(),
		"spaces":         strings.Repeat(" ", 4096),
		"cjk":            strings.Repeat("会議", 4096/6),
		"invalid utf-8":  strings.Repeat("\xff\xfe", 2048),
		"past the limit": strings.Repeat("word ", 10*MaxInputBytes),
	} {
		start := time.Now()
		ids := e.Tokens(text)
		v := e.Encode(text)
		if len(ids) > MaxTokens || len(ids) == 0 {
			t.Errorf("%s: %d tokens, want 1 to %d", name, len(ids), MaxTokens)
		}
		if n := dotProduct(v, v); n < 0.999 || n > 1.001 {
			t.Errorf("%s: squared length %.4f, want 1", name, n)
		}
		if elapsed := time.Since(start); elapsed > 5*time.Second {
			t.Errorf("%s: took %v", name, elapsed)
		}
	}
}

func TestEncodeConcurrently(t *testing.T) {
	e := mustLoad(t)
	texts := []string{"schedule a meeting", description60, "会議", "", strings.Repeat("a ", 200)}
	want := make([][]float32, len(texts))
	for i, text := range texts {
		want[i] = e.Encode(text)
	}
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for i, text := range texts {
				if got := e.Encode(text); !slices.Equal(got, want[i]) {
					t.Errorf("Encode(%.20q) differs when run concurrently", text)
				}
			}
		})
	}
	wg.Wait()
}

func TestEncodeEmpty(t *testing.T) {
	e := mustLoad(t)
	if ids := e.Tokens(""); len(ids) != 0 {
		t.Errorf("Tokens(\"\") = %v, want none", ids)
	}
	if v := e.Encode(""); len(v) != Dims || dotProduct(v, v) < 0.999 {
		t.Errorf("Encode(\"\"): %d components, squared length %.3f; want %d, 1", len(v), dotProduct(v, v), Dims)
	}
}

func TestParseRejectsDamage(t *testing.T) {
	for name, data := range map[string]string{
		"empty":           "",
		"bad magic":       "MCPSUSE0" + weights[8:],
		"truncated":       weights[:len(weights)/2],
		"trailing bytes":  weights + "x",
		"header only":     weights[:64],
		"vocabulary only": weights[:len(weightsMagic)+4],
	} {
		if _, err := parse(data); !errors.Is(err, errWeights) {
			t.Errorf("%s: err = %v, want errWeights", name, err)
		}
	}
}

func FuzzTokens(f *testing.F) {
	e := mustLoad(f)
	for _, seed := range []string{"", " ", "schedule a meeting", "會議 Größe", ":30 :00 ”5", "\xff"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		ids := e.Tokens(text)
		if len(ids) > MaxTokens {
			t.Fatalf("%d tokens", len(ids))
		}
		for _, id := range ids {
			if id < 0 || int(id) >= len(e.tokenizer.scores) {
				t.Fatalf("id %d out of range", id)
			}
		}
	})
}
