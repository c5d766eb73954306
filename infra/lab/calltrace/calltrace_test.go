package calltrace

import (
	"go/parser"
	"go/token"
	"reflect"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/infra/lab/calltrace/hook"
)

// TestInstrumentKeepsLinesAndDirectives: every function body and closure
// calls the recorder first, each line keeps its number and its comments,
// and the result parses.
func TestInstrumentKeepsLinesAndDirectives(t *testing.T) {
	t.Parallel()
	src := "//go:build linux\n\n// Package p.\npackage p\n\nimport \"embed\"\n\n//go:embed x\nvar fs embed.FS\n\nfunc f() int {\n\tg := func() int { return 1 }\n\treturn g()\n}\n\nfunc decl()\n"
	out, err := Instrument("p.go", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	got := string(out)
	if n := strings.Count(got, hookName+".Enter();"); n != 2 {
		t.Errorf("got %d calls of the recorder, want 2 (f and its closure; decl has no body):\n%s", n, got)
	}
	if strings.Count(got, "\n") != strings.Count(src, "\n") {
		t.Errorf("line count changed:\n%s", got)
	}
	for _, keep := range []string{"//go:build linux\n", "\n//go:embed x\nvar fs", "package p; import " + hookName} {
		if !strings.Contains(got, keep) {
			t.Errorf("lost %q:\n%s", keep, got)
		}
	}
	if _, err := parser.ParseFile(token.NewFileSet(), "p.go", out, 0); err != nil {
		t.Errorf("instrumented file does not parse: %v\n%s", err, got)
	}
	plain := "package q\n\nconst c = 1\n"
	if out, _ := Instrument("q.go", []byte(plain)); string(out) != plain {
		t.Errorf("a file without functions changed: %q", out)
	}
}

// TestSummarize: visits, returns and callbacks of a small trace. index
// calls retrieval, which calls text and then back into index while
// index.Search waits; then index calls store.
func TestSummarize(t *testing.T) {
	t.Parallel()
	root := "/w"
	call := func(file string, callers ...string) hook.Call {
		full := make([]string, len(callers))
		for i, c := range callers {
			full[i] = root + "/" + c
		}
		return hook.Call{Func: module + file, File: root + "/" + file, Callers: full}
	}
	calls := []hook.Call{
		call("index/search.go"),
		call("index/internal/retrieval/rank.go", "index/search.go"),
		call("index/internal/text/words.go", "index/internal/retrieval/rank.go", "index/search.go"),
		call("index/source.go", "index/internal/retrieval/rank.go", "index/search.go"),
		call("index/search.go", "index/search.go"),
		call("index/internal/store/store.go", "index/search.go"),
	}
	s := Summarize(calls, root)
	want := Summary{
		Entries:          6,
		Packages:         []string{"index", "index/internal/retrieval", "index/internal/text", "index/internal/store"},
		Files:            []string{"index/search.go", "index/internal/retrieval/rank.go", "index/internal/text/words.go", "index/source.go", "index/internal/store/store.go"},
		PackageVisits:    []string{"index", "index/internal/retrieval", "index/internal/text", "index", "index/internal/store"},
		PackageReturns:   1,
		FileVisits:       6,
		FileReturns:      1,
		PackageCallbacks: 1,
		Callbacks:        map[string]int{"index/internal/retrieval → index": 1},
		CallbackFuncs:    map[string]int{"index/source.go": 1},
		FileCallbacks:    0,
	}
	if !reflect.DeepEqual(s, want) {
		t.Errorf("got %+v\nwant %+v", s, want)
	}
}
