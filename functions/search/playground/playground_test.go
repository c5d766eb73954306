package playground

import (
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"testing"
)

func get(t *testing.T, method, path string) (*http.Response, string) {
	t.Helper()
	rec := httptest.NewRecorder()
	Handler().ServeHTTP(rec, httptest.NewRequest(method, path, nil))
	body, _ := io.ReadAll(rec.Result().Body)
	return rec.Result(), string(body)
}

func TestHandler(t *testing.T) {
	for _, test := range []struct {
		method, path string
		status       int
		contentType  string
	}{
		{"GET", "/", 200, "text/html; charset=utf-8"},
		{"HEAD", "/", 200, "text/html; charset=utf-8"},
		{"GET", "/playground.js", 200, "text/javascript; charset=utf-8"},
		{"GET", "/playground.css", 200, "text/css; charset=utf-8"},
		{"GET", "/favicon.svg", 200, "image/svg+xml"},
		{"GET", "/nothing-here", 404, ""},
		{"POST", "/", 405, ""},
	} {
		t.Run(test.method+" "+test.path, func(t *testing.T) {
			resp, _ := get(t, test.method, test.path)
			if resp.StatusCode != test.status {
				t.Fatalf("got %d, want %d", resp.StatusCode, test.status)
			}
			if test.contentType != "" && resp.Header.Get("Content-Type") != test.contentType {
				t.Errorf("Content-Type %q, want %q", resp.Header.Get("Content-Type"), test.contentType)
			}
			if test.status == 200 && !strings.Contains(resp.Header.Get("Content-Security-Policy"), "script-src 'self'") {
				t.Errorf("Content-Security-Policy %q: want scripts from the page's origin only", resp.Header.Get("Content-Security-Policy"))
			}
		})
	}
}

// TestPageLoadsNothingFromElsewhere: the page works offline and shows
// server text only as text.
func TestPageLoadsNothingFromElsewhere(t *testing.T) {
	external := regexp.MustCompile(`(?i)(src|href)\s*=\s*["']?(https?:)?//|url\(\s*["']?(https?:)?//|@import`)
	asHTML := regexp.MustCompile(`innerHTML|outerHTML|insertAdjacentHTML|document\.write|\beval\(|new Function`)
	err := fs.WalkDir(static, "static", func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := static.ReadFile(path)
		if err != nil {
			return err
		}
		if m := external.Find(data); m != nil {
			t.Errorf("%s loads %q from elsewhere", path, m)
		}
		if m := asHTML.Find(data); m != nil && strings.HasSuffix(path, ".js") {
			t.Errorf("%s uses %q: server text must be set with textContent", path, m)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

// TestPageUsesTheMCPEndpoint: the script asks the MCP endpoint, relative to
// the page, and nothing else.
func TestPageUsesTheMCPEndpoint(t *testing.T) {
	_, js := get(t, "GET", "/playground.js")
	calls := regexp.MustCompile(`fetch\(([^,]+),`).FindAllStringSubmatch(js, -1)
	if len(calls) != 1 || calls[0][1] != "'mcp'" {
		t.Errorf("fetch calls %q: want one, to 'mcp'", calls)
	}
	for _, method := range []string{"'initialize'", "'tools/search'", "'prompts/search'", "'resources/search'", "'resources/templates/search'", "'io.github.mcpsearch/explain'"} {
		if !strings.Contains(js, method) {
			t.Errorf("playground.js does not name %s", method)
		}
	}
}
