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
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

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
	setup  []string // commands of its sh block that prepare the server (docs_setup_test.go)
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
			var h http.Handler
			if len(ex.setup) > 0 {
				h = servers.handlerAfterSetup(t, ex)
			} else {
				h = servers.handler(t, ex.env)
			}
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
