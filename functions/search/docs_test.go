package main

// The docs' JSON-RPC examples are run: TestDocExamples sends every request a
// doc in the repository shows to this function, serving the default catalog
// in process, and compares the answer with the one the doc shows.
//
// A doc marks each example with an HTML comment on the line before it:
//
//	<!-- example: NAME -->
//	<!-- example: NAME; not run: REASON -->
//
// followed by either a ```json block of "REQUEST → ANSWER" pairs (one or
// more), or a ```sh block of curl commands (each sends its -d body, with
// its -H headers) and then a ```json block with one answer per curl. A
// `VAR=value … go run ./functions/search` line in the sh block configures
// the server the way it configures the real one. An answer is the whole
// JSON-RPC message when it has "jsonrpc", else its result. In an answer:
//   - "…" matches any value, and a … in a string any text ("Take a …" any
//     string that starts with "Take a ");
//   - a bare … is shorthand: {…} and "a":{…} for any object, "x":… for any
//     value, {"a":1,…} for an object with a (and maybe more), [x,…] for an
//     array that starts with x;
//   - a number with decimals matches to the digits shown (1.76 matches
//     1.7602); other values match exactly, objects without … member for
//     member.
//
// In a request, "…" stands for the nextCursor of the doc's last answer that
// had one. An example that needs what the test cannot start (an upstream, a
// credential) says so in its marker and is only parsed. A block that holds
// "jsonrpc" without a marker fails the test, so no example goes unchecked.

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"

	"github.com/mcpsearch/mcpsearch/index"
)

// repoRoot is the repository, seen from this package's directory.
const repoRoot = "../.."

const ellipsis = "…"

// docExample is one marked example of a doc.
type docExample struct {
	doc    string // path from the repository root
	line   int    // of the marker
	name   string
	notRun string // the reason, for an example that is not run
	env    map[string]string
	pairs  []examplePair
}

// examplePair is one request and the answer the doc shows for it.
type examplePair struct {
	body    string
	headers map[string]string
	want    any // decoded, with json.Number
}

// TestDocExamples: every JSON-RPC example in the docs gets the answer it
// shows from a server on the default catalog.
func TestDocExamples(t *testing.T) {
	examples := allDocExamples(t)
	if len(examples) == 0 {
		t.Fatal("no examples found in the docs")
	}
	servers := newDocServers(t)
	cursors := map[string]string{} // per doc: the last nextCursor answered
	for _, ex := range examples {
		if ex.notRun != "" {
			t.Logf("%s:%d: %s: not run: %s", ex.doc, ex.line, ex.name, ex.notRun)
			continue
		}
		t.Run(ex.doc+"/"+ex.name, func(t *testing.T) {
			h := servers.handler(t, ex.env)
			for i, p := range ex.pairs {
				got := sendExample(t, h, p, cursors, ex.doc)
				if diffs := matchAnswer(p.want, got); len(diffs) > 0 {
					t.Errorf("%s:%d: %s, request %d: the answer differs from the doc's:\n  %s\ngot %s",
						ex.doc, ex.line, ex.name, i+1, strings.Join(diffs, "\n  "), compact(got))
				}
			}
		})
	}
}

// sendExample sends p's request to h and returns the decoded answer,
// noting its nextCursor for the doc's next requests.
func sendExample(t *testing.T, h http.Handler, p examplePair, cursors map[string]string, doc string) any {
	t.Helper()
	body := p.body
	if strings.Contains(body, `"`+ellipsis+`"`) {
		body = withCursor(t, body, cursors[doc])
	}
	req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	for k, v := range p.headers {
		req.Header.Set(k, v)
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	got, err := decodeNumbers(rec.Body.Bytes())
	if err != nil {
		t.Fatalf("request %s: HTTP %d, answer %q is not JSON: %v", body, rec.Code, rec.Body.String(), err)
	}
	if c, ok := path(got, "result", "nextCursor").(string); ok {
		cursors[doc] = c
	}
	return got
}

// withCursor replaces the "…" strings of a request with cursor.
func withCursor(t *testing.T, body, cursor string) string {
	t.Helper()
	if cursor == "" {
		t.Fatalf("request %s stands for a cursor, but no earlier answer of its doc had one", body)
	}
	v, err := decodeNumbers([]byte(body))
	if err != nil {
		t.Fatalf("request %s: %v", body, err)
	}
	out, _ := json.Marshal(replaceEllipsis(v, cursor))
	return string(out)
}

func replaceEllipsis(v any, s string) any {
	switch v := v.(type) {
	case string:
		if v == ellipsis {
			return s
		}
	case map[string]any:
		for k, x := range v {
			v[k] = replaceEllipsis(x, s)
		}
	case []any:
		for i, x := range v {
			v[i] = replaceEllipsis(x, s)
		}
	}
	return v
}

// docServers serves the default catalog, one handler per environment, for
// the whole test.
type docServers struct {
	test     *testing.T
	idx      *index.Index
	handlers map[string]http.Handler
}

func newDocServers(t *testing.T) *docServers {
	t.Helper()
	dir, err := cachedBundle("", t.TempDir(), io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	idx, err := index.Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { idx.Close() })
	return &docServers{test: t, idx: idx, handlers: map[string]http.Handler{}}
}

// handler returns the function's handler for the environment env, as
// `env go run ./functions/search` would start it.
func (s *docServers) handler(t *testing.T, env map[string]string) http.Handler {
	t.Helper()
	key := fmt.Sprint(env)
	if h, ok := s.handlers[key]; ok {
		return h
	}
	h, err := newHandler(mustConfig(t, env), s.idx, quiet)
	if err != nil {
		t.Fatal(err)
	}
	s.test.Cleanup(func() { h.Close() })
	s.handlers[key] = h
	return h
}

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

// relax turns a doc's JSON into JSON: a bare … becomes "…" (a value or an
// array element) or "…":"…" (an object member), and each → between a
// request and its answer becomes a space, counted.
func relax(s string) (string, int) {
	var b strings.Builder
	var stack []rune
	last, arrows := rune(0), 0
	inString, escaped := false, false
	for _, r := range s {
		if inString {
			b.WriteRune(r)
			switch {
			case escaped:
				escaped = false
			case r == '\\':
				escaped = true
			case r == '"':
				inString, last = false, '"'
			}
			continue
		}
		switch r {
		case '"':
			inString = true
		case '{', '[':
			stack = append(stack, r)
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case '→':
			arrows++
			b.WriteRune(' ')
			continue
		case '…':
			if len(stack) > 0 && stack[len(stack)-1] == '{' && last != ':' {
				b.WriteString(`"…":"…"`)
			} else {
				b.WriteString(`"…"`)
			}
			last = '"'
			continue
		}
		b.WriteRune(r)
		if !unicode.IsSpace(r) {
			last = r
		}
	}
	return b.String(), arrows
}

// decodeAll decodes a stream of JSON values, numbers as json.Number.
func decodeAll(text string) ([]any, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var values []any
	for {
		var v any
		err := dec.Decode(&v)
		if err == io.EOF {
			return values, nil
		}
		if err != nil {
			return nil, fmt.Errorf("not JSON after %d values: %w", len(values), err)
		}
		values = append(values, v)
	}
}

func decodeNumbers(data []byte) (any, error) {
	values, err := decodeAll(string(data))
	if err != nil {
		return nil, err
	}
	if len(values) != 1 {
		return nil, fmt.Errorf("%d JSON values, want 1", len(values))
	}
	return values[0], nil
}

func compact(v any) string {
	data, _ := json.Marshal(v)
	if len(data) > 2000 {
		return string(data[:2000]) + "…"
	}
	return string(data)
}

// matchAnswer compares an answer with the doc's: the whole message when the
// doc shows "jsonrpc", else its result.
func matchAnswer(want, got any) []string {
	if w, ok := want.(map[string]any); ok {
		if _, whole := w["jsonrpc"]; !whole {
			if _, isResult := got.(map[string]any)["result"]; !isResult {
				return []string{"got no result"}
			}
			return matchValue("result", want, path(got, "result"))
		}
	}
	return matchValue("", want, got)
}

// matchValue compares got with want by the rules of the doc comment, and
// describes each difference at its path.
func matchValue(at string, want, got any) []string {
	switch w := want.(type) {
	case string:
		return matchString(at, w, got)
	case json.Number:
		if g, ok := got.(json.Number); ok && numbersMatch(w, g) {
			return nil
		}
	case map[string]any:
		return matchObject(at, w, got)
	case []any:
		return matchArray(at, w, got)
	default: // bool, nil
		if want == got {
			return nil
		}
	}
	return []string{fmt.Sprintf("%s: got %s, want %s", at, compact(got), compact(want))}
}

func matchString(at, want string, got any) []string {
	if want == ellipsis {
		return nil
	}
	if g, ok := got.(string); ok && globMatch(want, g) {
		return nil
	}
	return []string{fmt.Sprintf("%s: got %s, want %q", at, compact(got), want)}
}

// globMatch: each … of want stands for any text.
func globMatch(want, got string) bool {
	parts := strings.Split(want, ellipsis)
	rest, ok := strings.CutPrefix(got, parts[0])
	if !ok {
		return false
	}
	if len(parts) == 1 {
		return rest == ""
	}
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(rest, p)
		if i < 0 {
			return false
		}
		rest = rest[i+len(p):]
	}
	return strings.HasSuffix(rest, parts[len(parts)-1])
}

// numbersMatch: a number shown with decimals matches to those digits,
// another exactly.
func numbersMatch(want, got json.Number) bool {
	w, err1 := want.Float64()
	g, err2 := got.Float64()
	if err1 != nil || err2 != nil {
		return false
	}
	s := strings.ToLower(want.String())
	if !strings.Contains(s, ".") {
		return w == g
	}
	mantissa, exp, _ := strings.Cut(s, "e")
	_, decimals, _ := strings.Cut(mantissa, ".")
	e, _ := strconv.Atoi(exp)
	return math.Abs(w-g) <= 0.5*math.Pow(10, float64(e-len(decimals)))+1e-12
}

func matchObject(at string, want map[string]any, got any) []string {
	g, ok := got.(map[string]any)
	if !ok {
		return []string{fmt.Sprintf("%s: got %s, want an object", at, compact(got))}
	}
	var diffs []string
	for k, wv := range want {
		if k == ellipsis {
			continue
		}
		gv, ok := g[k]
		if !ok {
			diffs = append(diffs, fmt.Sprintf("%s: no member %q", at, k))
			continue
		}
		diffs = append(diffs, matchValue(at+"."+k, wv, gv)...)
	}
	if _, open := want[ellipsis]; !open {
		for k := range g {
			if _, shown := want[k]; !shown {
				diffs = append(diffs, fmt.Sprintf("%s: member %q is not in the doc (add it, or …)", at, k))
			}
		}
	}
	slices.Sort(diffs)
	return diffs
}

func matchArray(at string, want []any, got any) []string {
	g, ok := got.([]any)
	if !ok {
		return []string{fmt.Sprintf("%s: got %s, want an array", at, compact(got))}
	}
	head, tail := want, []any(nil)
	if i := slices.Index(want, any(ellipsis)); i >= 0 {
		head, tail = want[:i], want[i+1:]
	} else if len(g) != len(want) {
		return []string{fmt.Sprintf("%s: got %d elements, want %d", at, len(g), len(want))}
	}
	if len(g) < len(head)+len(tail) {
		return []string{fmt.Sprintf("%s: got %d elements, want at least %d", at, len(g), len(head)+len(tail))}
	}
	var diffs []string
	for i, w := range head {
		diffs = append(diffs, matchValue(fmt.Sprintf("%s[%d]", at, i), w, g[i])...)
	}
	for i, w := range tail {
		j := len(g) - len(tail) + i
		diffs = append(diffs, matchValue(fmt.Sprintf("%s[%d]", at, j), w, g[j])...)
	}
	return diffs
}

// TestDocExampleRules: the comparison follows the rules the docs rely on.
func TestDocExampleRules(t *testing.T) {
	for _, test := range []struct {
		want, got string
		ok        bool
	}{
		{`{"score":1.76}`, `{"score":1.7602}`, true},
		{`{"score":1.76}`, `{"score":1.7702}`, false},
		{`{"score":1.175}`, `{"score":1.7602}`, false},
		{`{"n":10}`, `{"n":10.4}`, false},
		{`{"a":1,…}`, `{"a":1,"b":2}`, true},
		{`{"a":1}`, `{"a":1,"b":2}`, false},
		{`{"a":…}`, `{"a":[1,{"b":2}]}`, true},
		{`{"s":"Take a screenshot…"}`, `{"s":"Take a screenshot of the page"}`, true},
		{`{"s":"Take a photo…"}`, `{"s":"Take a screenshot of the page"}`, false},
		{`{"s":"Take … of the page"}`, `{"s":"Take a screenshot of the page"}`, true},
		{`{"s":"Take … of the book"}`, `{"s":"Take a screenshot of the page"}`, false},
		{`{"s":"Take"}`, `{"s":"Take a screenshot of the page"}`, false},
		{`[1,…]`, `[1,2,3]`, true},
		{`[…,3]`, `[1,2,3]`, true},
		{`[1,…]`, `[2,3]`, false},
		{`[1]`, `[1,2]`, false},
		{`{"t":{…}}`, `{"t":{"x":1}}`, true},
		{`{"t":{…}}`, `{"t":[1]}`, false},
		{`{"b":false}`, `{"b":false}`, true},
		{`{"b":false}`, `{}`, false},
	} {
		wantText, _ := relax(test.want)
		want, err := decodeNumbers([]byte(wantText))
		if err != nil {
			t.Fatalf("%s: %v", test.want, err)
		}
		got, _ := decodeNumbers([]byte(test.got))
		if diffs := matchValue("", want, got); (len(diffs) == 0) != test.ok {
			t.Errorf("doc %s, answer %s: got differences %q, want a match %v", test.want, test.got, diffs, test.ok)
		}
	}
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
