package text

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestGlossOf(t *testing.T) {
	for head, want := range map[string]string{"新闻": "news", "天气": "weather", "搜索": "search", "获取": "get"} {
		words, ok := glossOf(head)
		if !ok || !strings.Contains(" "+words+" ", " "+want+" ") {
			t.Errorf("glossOf(%q) = %q, %v; want it to hold %q", head, words, ok, want)
		}
	}
	for _, head := range []string{"", "x", "的", "zzz", "\U0002FFFF"} {
		if words, ok := glossOf(head); ok {
			t.Errorf("glossOf(%q) = %q, want no entry", head, words)
		}
	}
}

// TestGlossOfEveryHeadword: bisection finds every line of the table,
// the first and the last among them.
func TestGlossOfEveryHeadword(t *testing.T) {
	lines := strings.Split(strings.TrimSuffix(string(glossLines()), "\n"), "\n")
	if len(lines) < 50000 {
		t.Fatalf("the gloss table has %d lines", len(lines))
	}
	for i, line := range lines {
		head, want, _ := strings.Cut(line, "\t")
		if n := utf8.RuneCountInString(head); n > maxGlossChars {
			t.Fatalf("line %d: %q has %d characters, more than maxGlossChars (%d) looks up", i, head, n, maxGlossChars)
		}
		if i > 0 && strings.Split(lines[i-1], "\t")[0] >= head {
			t.Fatalf("line %d: %q is not after %q", i, head, lines[i-1])
		}
		if got, ok := glossOf(head); !ok || got != want {
			t.Fatalf("glossOf(%q) = %q, %v; want %q", head, got, ok, want)
		}
	}
}

func TestGlossChinese(t *testing.T) {
	for _, test := range []struct{ text, want, not string }{
		{"获取微博热搜榜", "microblog", ""},
		{"获取 BBC 新闻", "news", ""},
		{"獲取天氣預報", "weather", ""},           // traditional
		{"查询火车票余票信息", "train", ""},          // longest words first: 火车票 is one
		{"返回搜索结果的列表", "list", "taxi"},       // 的 is grammar, not "taxi"
		{"在飞书群里发消息", "message", "lining"},   // 里 is "in" (群里: in the group), not a coat's lining
		{"你来写一个文件", "file", "come"},         // 来 before a verb: you write a file; not "come"
		{"在GitHub上创建仓库", "create", "upper"}, // 上 is "on", not "upper"
		{"在列表中查找", "find", "within"},        // 中 is "in" (in the list)
		{"English only", "", ""},
	} {
		got := GlossChinese(test.text)
		if (test.want == "") != (got == "") || !strings.Contains(got, test.want) || (test.not != "" && strings.Contains(got, test.not)) {
			t.Errorf("GlossChinese(%q) = %q, want it to hold %q and not %q", test.text, got, test.want, test.not)
		}
	}
}

func TestWithGlosses(t *testing.T) {
	if got := WithGlosses("list the files"); got != "list the files" {
		t.Errorf("text without Chinese changed: %q", got)
	}
	got := WithGlosses("What are the 八字 of a boy, 天气 too")
	for _, want := range []string{"What are the 八字 (", " (character birthdate characters) of a boy, 天气 (weather) too", "too"} {
		if !strings.Contains(got, want) {
			t.Errorf("WithGlosses: %q lacks %q", got, want)
		}
	}
}

func BenchmarkGlossChinese(b *testing.B) {
	text := "获取豆瓣实时热门榜单，提供当前热门的图书、电影、电视剧、综艺等作品信息，包含评分和热度数据"
	for b.Loop() {
		GlossChinese(text)
	}
}
