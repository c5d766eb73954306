package text

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestFileName(t *testing.T) {
	for tok, want := range map[string][2]string{
		"/root/markdown/report.md":      {"report", "md"},
		"~/notes/todo.txt":              {"todo", "txt"},
		"./build/app.tar.gz":            {"app.tar", "gz"},
		"../data/Sales_2024.xlsx":       {"Sales_2024", "xlsx"},
		`C:\Users\me\deck.pptx`:         {"deck", "pptx"},
		"D:/exports/q3.csv":             {"q3", "csv"},
		"/var/log/nginx/":               {},
		"/etc/hosts":                    {},
		"https://example.com/page.html": {},
		"//cdn.example.com/app.js":      {},
		"report.md":                     {"report", "md"},
		"summary.txt":                   {"summary", "txt"},
		"Q3-budget_v2.xlsx":             {"Q3-budget_v2", "xlsx"},
		"node.js":                       {},
		"socket.io":                     {},
		"example.com":                   {},
		"mybakery.fr":                   {},
		"me@example.pdf":                {},
		".env":                          {},
		"vercel/ai":                     {},
		"/tmp/a.b!c":                    {},
		"/tmp/archive.backup2024":       {},
		"C:":                            {},
	} {
		name, ext, ok := fileName(tok)
		if ok != (want != [2]string{}) || name != want[0] || ext != want[1] {
			t.Errorf("fileName(%q) = %q, %q, %v; want %q", tok, name, ext, ok, want)
		}
	}
}

func TestWithFileWords(t *testing.T) {
	for in, want := range map[string]string{
		"Save it to /root/markdown/report.md.": "Save it to report md file.",
		"plot (from ~/data/sales.csv) as bars": "plot (from sales csv file) as bars",
		"compare /a/x.py and /b/y.go":          "compare x py file and y go file",
		"list the files in /var/log":           "list the files in /var/log",
		"fetch https://example.com/index.html": "fetch https://example.com/index.html",
		"no path at all":                       "no path at all",
	} {
		if got := WithFileWords(in); got != want {
			t.Errorf("WithFileWords(%q) = %q, want %q", in, got, want)
		}
	}
	if got, want := FilesAsWord("read ~/todo.txt now"), "read file now"; got != want {
		t.Errorf("filesAsWord = %q, want %q", got, want)
	}
}

// FuzzQueryRewrites: the path and gloss rewrites never break a query's
// text and leave one with neither alone.
func FuzzQueryRewrites(f *testing.F) {
	for _, s := range []string{"save to /root/a.md", "天气 /x/y.txt", `C:\a\b.c`, "plain", "~/", "/.x", "獲取\n/a/b.md\t"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		out := WithGlosses(WithFileWords(s))
		if utf8.ValidString(s) && !utf8.ValidString(out) {
			t.Fatalf("%q became invalid UTF-8: %q", s, out)
		}
		if !strings.ContainsAny(s, `/\`) && !HasHan(s) && out != s {
			t.Fatalf("%q has no path and no Chinese but became %q", s, out)
		}
		if strings.Count(out, "\n") < strings.Count(s, "\n") {
			t.Fatalf("%q lost line breaks: %q", s, out)
		}
	})
}
