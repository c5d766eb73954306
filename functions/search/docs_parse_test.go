package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// allDocExamples reads the examples of every doc in the repository.
func allDocExamples(t *testing.T) []docExample {
	t.Helper()
	var all []docExample
	for _, doc := range repoDocs(t) {
		data, err := os.ReadFile(filepath.Join(repoRoot, doc))
		if err != nil {
			t.Fatal(err)
		}
		examples, err := parseDocExamples(doc, string(data))
		if err != nil {
			t.Error(err)
		}
		all = append(all, examples...)
	}
	return all
}

// repoDocs lists the repository's *.md files (paths from its root), but
// those of node_modules and testdata.
func repoDocs(t *testing.T) []string {
	t.Helper()
	var docs []string
	err := filepath.WalkDir(repoRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && slices.Contains([]string{"node_modules", "testdata", ".git"}, d.Name()) {
			return filepath.SkipDir
		}
		if !d.IsDir() && strings.HasSuffix(p, ".md") {
			rel, _ := filepath.Rel(repoRoot, p)
			docs = append(docs, filepath.ToSlash(rel))
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return docs
}

// fence is one fenced code block of a doc.
type fence struct {
	lang  string
	body  string
	start int // line of the opening fence, from 1
	end   int // line of the closing fence
}

// fences returns the fenced code blocks of lines.
func fences(lines []string) []fence {
	var out []fence
	for i := 0; i < len(lines); i++ {
		lang, ok := strings.CutPrefix(lines[i], "```")
		if !ok {
			continue
		}
		f := fence{lang: strings.TrimSpace(lang), start: i + 1}
		var body []string
		for i++; i < len(lines) && lines[i] != "```"; i++ {
			body = append(body, lines[i])
		}
		f.body, f.end = strings.Join(body, "\n"), i+1
		out = append(out, f)
	}
	return out
}

var markerRE = regexp.MustCompile(`^<!-- example: (.+) -->$`)

// parseDocExamples returns the marked examples of a doc, and an error for a
// malformed one or a JSON-RPC block without a marker.
func parseDocExamples(doc, text string) ([]docExample, error) {
	lines := strings.Split(text, "\n")
	blocks := fences(lines)
	used := map[int]bool{} // blocks that belong to an example, by index
	var examples []docExample
	var errs []string
	for i, line := range lines {
		m := markerRE.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		ex, n, err := parseExample(doc, i+1, m[1], lines, blocks)
		if err != nil {
			errs = append(errs, err.Error())
			continue
		}
		for j := range n {
			used[j+blockAfter(blocks, i+1)] = true
		}
		examples = append(examples, ex)
	}
	for i, b := range blocks {
		if !used[i] && (b.lang == "json" || b.lang == "sh") && strings.Contains(b.body, `"jsonrpc"`) {
			errs = append(errs, fmt.Sprintf("%s:%d: a JSON-RPC example without an <!-- example: … --> marker", doc, b.start))
		}
	}
	if len(errs) > 0 {
		return examples, fmt.Errorf("%s", strings.Join(errs, "\n"))
	}
	return examples, nil
}

// blockAfter is the index of the first block that opens after line (from
// 1), or len(blocks).
func blockAfter(blocks []fence, line int) int {
	for i, b := range blocks {
		if b.start > line {
			return i
		}
	}
	return len(blocks)
}

// parseExample reads the example whose marker (text m) is at line: its
// blocks must follow, separated by blank lines only. It returns the example
// and how many blocks it took.
func parseExample(doc string, line int, m string, lines []string, blocks []fence) (docExample, int, error) {
	ex := docExample{doc: doc, line: line}
	parts := strings.Split(m, ";")
	ex.name = strings.TrimSpace(parts[0])
	for _, opt := range parts[1:] {
		reason, ok := strings.CutPrefix(strings.TrimSpace(opt), "not run:")
		if !ok || strings.TrimSpace(reason) == "" {
			return ex, 0, fmt.Errorf("%s:%d: unknown marker option %q (want \"not run: REASON\")", doc, line, opt)
		}
		ex.notRun = strings.TrimSpace(reason)
	}
	first := blockAfter(blocks, line)
	if first == len(blocks) || !blank(lines[line:blocks[first].start-1]) {
		return ex, 0, fmt.Errorf("%s:%d: example %q: no code block right after the marker", doc, line, ex.name)
	}
	var err error
	switch b := blocks[first]; b.lang {
	case "json":
		ex.pairs, err = arrowPairs(b.body)
		return ex, 1, wrapExample(err, doc, b.start, ex.name)
	case "sh":
		if first+1 == len(blocks) || blocks[first+1].lang != "json" || !blank(lines[b.end:blocks[first+1].start-1]) {
			return ex, 0, fmt.Errorf("%s:%d: example %q: the sh block is not followed by a json block of answers", doc, b.start, ex.name)
		}
		ex.env, ex.pairs, err = curlPairs(b.body, blocks[first+1].body)
		ex.setup = setupCommands(b.body)
		return ex, 2, wrapExample(err, doc, b.start, ex.name)
	default:
		return ex, 0, fmt.Errorf("%s:%d: example %q: a %q block, want json or sh", doc, b.start, ex.name, b.lang)
	}
}

func wrapExample(err error, doc string, line int, name string) error {
	if err != nil {
		return fmt.Errorf("%s:%d: example %q: %w", doc, line, name, err)
	}
	return nil
}

func blank(lines []string) bool {
	for _, l := range lines {
		if strings.TrimSpace(l) != "" {
			return false
		}
	}
	return true
}

// arrowPairs reads "REQUEST → ANSWER" pairs.
func arrowPairs(body string) ([]examplePair, error) {
	text, arrows := relax(body)
	values, err := decodeAll(text)
	if err != nil {
		return nil, err
	}
	if arrows == 0 || len(values) != 2*arrows {
		return nil, fmt.Errorf("%d values and %d arrows: want REQUEST → ANSWER pairs", len(values), arrows)
	}
	var pairs []examplePair
	for i := 0; i < len(values); i += 2 {
		req, _ := json.Marshal(values[i])
		pairs = append(pairs, examplePair{body: string(req), want: values[i+1]})
	}
	return pairs, nil
}

var (
	curlData   = regexp.MustCompile(`\s-d '([^']*)'`)
	curlHeader = regexp.MustCompile(`\s-H '([^':]+):\s*([^']*)'`)
	envWord    = regexp.MustCompile(`^([A-Z][A-Z0-9_]*)=(\S*)$`)
)

// curlPairs reads the curl commands of an sh block and the answers of the
// json block after it, and the environment of a `go run ./functions/search`
// line.
func curlPairs(sh, answers string) (map[string]string, []examplePair, error) {
	var env map[string]string
	var pairs []examplePair
	for _, cmd := range strings.Split(strings.ReplaceAll(sh, "\\\n", " "), "\n") {
		if strings.Contains(cmd, "go run ./functions/search") {
			env = commandEnv(cmd)
		}
		if !strings.HasPrefix(strings.TrimSpace(cmd), "curl ") {
			continue
		}
		d := curlData.FindStringSubmatch(cmd)
		if d == nil {
			continue
		}
		p := examplePair{body: d[1], headers: map[string]string{}}
		for _, h := range curlHeader.FindAllStringSubmatch(cmd, -1) {
			p.headers[h[1]] = h[2]
		}
		pairs = append(pairs, p)
	}
	text, _ := relax(answers)
	values, err := decodeAll(text)
	if err != nil {
		return nil, nil, err
	}
	if len(pairs) == 0 || len(values) != len(pairs) {
		return nil, nil, fmt.Errorf("%d curl requests and %d answers", len(pairs), len(values))
	}
	for i := range pairs {
		pairs[i].want = values[i]
	}
	return env, pairs, nil
}

// commandEnv returns the VAR=value words that begin a command line.
func commandEnv(cmd string) map[string]string {
	env := map[string]string{}
	for _, w := range strings.Fields(cmd) {
		m := envWord.FindStringSubmatch(w)
		if m == nil {
			break
		}
		env[m[1]] = m[2]
	}
	return env
}

// TestDocExampleParsing: a doc's examples are read in each form, and a
// JSON-RPC block without a marker is refused.
func TestDocExampleParsing(t *testing.T) {
	doc := strings.Join([]string{
		"<!-- example: arrows -->", "```json",
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`, `→ {}`, "",
		`{"jsonrpc":"2.0","id":2,"method":"tools/list","params":{"cursor":"…"}}`, `→ {"tools":[…],"nextCursor":"…"}`, "```",
		"", "<!-- example: curl; not run: needs an upstream -->", "```sh",
		"MCPSEARCH_LIST_MODE=meta go run ./functions/search",
		`curl -s http://127.0.0.1:8080/mcp -H 'Content-Type: application/json' \`,
		`  -H 'Mcp-Method: ping' -d '{"jsonrpc":"2.0","id":3,"method":"ping"}'`, "```", "", "```json",
		`{"jsonrpc":"2.0","id":3,"result":{}}`, "```",
		"", "```json", `{"jsonrpc":"2.0","id":4,"method":"ping"}`, "```",
	}, "\n")
	examples, err := parseDocExamples("doc.md", doc)
	if err == nil || !strings.Contains(err.Error(), "doc.md:21: a JSON-RPC example without") {
		t.Errorf("unmarked block: got %v, want it refused", err)
	}
	if len(examples) != 2 || len(examples[0].pairs) != 2 || examples[1].notRun != "needs an upstream" {
		t.Fatalf("got %+v, want two examples", examples)
	}
	curl := examples[1]
	if curl.env["MCPSEARCH_LIST_MODE"] != "meta" || curl.pairs[0].headers["Mcp-Method"] != "ping" || !bytes.Contains([]byte(curl.pairs[0].body), []byte(`"id":3`)) {
		t.Errorf("curl example: got %+v", curl)
	}
}
