package text

import (
	"strings"
	"testing"
)

const testFrames = `
source: test
can you …
could you please …
please …
… please
… thanks
hey …
find …
search for …
i'd like to …
kannst du …
…してください
quarantined: a frame fitted to a miss
show me …
… for me
`

func TestWithoutFrames(t *testing.T) {
	fs := loadFrames(testFrames)
	for _, tc := range []struct{ in, want string }{
		{"book a flight to rome", "book a flight to rome"},
		{"find the cheapest flight to rome", "the cheapest flight to rome"},
		{"Can you book a flight to Rome?", "book a flight to Rome?"},
		{"hey, could you please find my invoices, thanks!", "my invoices"},
		{"could you please search for open PRs please", "open PRs"},
		{"I'd like to cancel my order", "cancel my order"},
		{"kannst du die Rechnung senden?", "die Rechnung senden?"},
		{"スクリーンショットを撮ってしてください", "スクリーンショットを撮って"},
		{"help", "help"},
		{"find", "find"},
		{"please", "please"},
		{"can you please", "can you please"},
		{"please スクリーンショット", "スクリーンショット"},
		{"finder of files", "finder of files"},
		{"show me the logs", "show me the logs"},         // quarantined: not loaded
		{"send the logs for me", "send the logs for me"}, // quarantined
		{"search the web for rome", "search the web for rome"},
		{"", ""},
	} {
		if got := fs.without(tc.in); got != tc.want {
			t.Errorf("without frames %q = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestFrameTable checks the table as shipped: every frame line holds one
// ellipsis, is written in lower case and stands under a source, and every
// frame loaded, put before (or after) a task, leaves the task.
func TestFrameTable(t *testing.T) {
	lines := readTable(frameTable)
	if len(lines) < 100 {
		t.Fatalf("frames.txt holds %d frames, want 100 or more", len(lines))
	}
	for _, l := range lines {
		if strings.Count(l.text, "…") != 1 {
			t.Errorf("frames.txt: %q: want one ellipsis (…) where the task stands", l.text)
		}
		if l.source == "" {
			t.Errorf("frames.txt: %q stands under no source: line", l.text)
		}
		if l.text != strings.ToLower(l.text) {
			t.Errorf("frames.txt: %q: frames are written in lower case", l.text)
		}
	}
	const task = "invoices"
	fs := frames()
	for _, f := range fs.leading {
		if in := strings.Join(f.words, " ") + f.text + " " + task; WithoutFrames(in) != task {
			t.Errorf("%q reads as %q, want %q", in, WithoutFrames(in), task)
		}
	}
	for _, f := range fs.trailing {
		if in := task + " " + strings.Join(f.words, " ") + f.text; WithoutFrames(in) != task {
			t.Errorf("%q reads as %q, want %q", in, WithoutFrames(in), task)
		}
	}
}

// TestOneCharacterFrames checks that a frame side of one Chinese or
// Japanese character is not loaded: it would strip the start (or the end)
// of a word.
func TestOneCharacterFrames(t *testing.T) {
	fs := loadFrames("source: test\n能…吗\n")
	for in, want := range map[string]string{"能源价格": "能源价格", "能源价格吗": "能源价格吗"} {
		if got := fs.without(in); got != want {
			t.Errorf("without frames %q = %q, want %q", in, got, want)
		}
	}
}

// BenchmarkWithoutFramesWorst strips the most frames a query can hold: its
// 128 words (ReadText's bound) all frames but the last, each stripped in
// its own pass; and 128 Chinese and Japanese characters ending in frames.
func BenchmarkWithoutFramesWorst(b *testing.B) {
	for name, in := range map[string]string{
		"words": strings.Repeat("please can you ", 42) + "invoices",
		"cjk":   "请帮我" + strings.Repeat("请求书", 40) + strings.Repeat("してください", 1),
	} {
		b.Run(name, func(b *testing.B) {
			if got := WithoutFrames(in); len(got) >= len(in) {
				b.Fatalf("nothing stripped of %q", in[:40])
			}
			b.ReportAllocs()
			for b.Loop() {
				WithoutFrames(in)
			}
		})
	}
}
