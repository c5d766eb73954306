package catalog

import (
	"errors"
	"strings"
	"testing"
)

// TestLoadRefusesUnusableUpstreams: an upstream the gateway cannot call —
// an SSE transport, a URL that is not http(s), a missing url or command, a
// field of the wrong type or an unknown one — is refused when the catalog
// loads (so by build and crawl), naming the file and the field, and never
// quoting the URL (it may hold a credential).
func TestLoadRefusesUnusableUpstreams(t *testing.T) {
	for _, test := range []struct{ name, upstream, field, want string }{
		{"sse", `{"transport":"sse","url":"http://127.0.0.1:1/sse"}`, "upstream.transport", `"sse" is not "streamable-http" or "stdio"`},
		{"no transport", `{"url":"http://127.0.0.1:1/mcp"}`, "upstream.transport", "missing"},
		{"file url", `{"transport":"streamable-http","url":"file:///etc/secret-token"}`, "upstream.url", "http:// or https://"},
		{"ftp url", `{"transport":"streamable-http","url":"ftp://h/mcp"}`, "upstream.url", "http:// or https://"},
		{"no url", `{"transport":"streamable-http"}`, "upstream.url", "missing"},
		{"no command", `{"transport":"stdio","args":["x"]}`, "upstream.command", "missing"},
		{"args not strings", `{"transport":"stdio","command":"npx","args":[1]}`, "upstream", "args"},
		{"unknown field", `{"transport":"stdio","command":"npx","environment":{}}`, "upstream", `unknown field "environment"`},
		{"not an object", `"http://127.0.0.1:1/mcp"`, "upstream", "want an object"},
	} {
		t.Run(test.name, func(t *testing.T) {
			_, err := load(map[string]string{"u.json": `{"server":"u","upstream":` + test.upstream + `}`})
			var le *LoadError
			if !errors.As(err, &le) || le.File != "cat/u.json" || le.Field != test.field || !strings.Contains(err.Error(), test.want) {
				t.Fatalf("got %v, want a *LoadError naming cat/u.json and field %s, saying %q", err, test.field, test.want)
			}
			if strings.Contains(err.Error(), "secret-token") {
				t.Errorf("got %q, which quotes the URL", err)
			}
		})
	}
}

// TestLoadAcceptsUsableUpstreams: what the gateway can call loads; a URL
// whose scheme comes from a ${VAR} is checked when the call expands it.
func TestLoadAcceptsUsableUpstreams(t *testing.T) {
	for _, upstream := range []string{
		`{"transport":"streamable-http","url":"https://gitlab.example.com/mcp","headers":{"Authorization":"Bearer ${T}"}}`,
		`{"transport":"streamable-http","url":"HTTP://127.0.0.1:1/mcp"}`,
		`{"transport":"streamable-http","url":"${GITLAB_URL}/mcp"}`,
		`{"transport":"stdio","command":"npx","args":["-y","x"],"env":{"K":"${K}"}}`,
		`null`,
	} {
		if _, err := load(map[string]string{"u.json": `{"server":"u","upstream":` + upstream + `}`}); err != nil {
			t.Errorf("%s: got %v, want it loaded", upstream, err)
		}
	}
}
