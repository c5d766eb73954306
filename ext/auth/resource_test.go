package auth

import (
	"context"
	"encoding/json"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// onListener returns a request to url as if it reached a listener at
// local, with the Host header host.
func onListener(url, local, host string) *http.Request {
	r := httptest.NewRequest(http.MethodPost, url, strings.NewReader(`{}`))
	r.Host = host
	addr, _ := net.ResolveTCPAddr("tcp", local)
	return r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, addr))
}

// TestChallengeNamesOnlyACheckedHost: the 401 challenge and the protected
// resource metadata name the configured public URL; without one, the
// request's Host only where it is known to be right (a loopback listener
// reached by a loopback name, or a front that sets it, as Lambda's), and
// otherwise no URL at all — never a Host a client chose.
func TestChallengeNamesOnlyACheckedHost(t *testing.T) {
	const evil = "evil.example:8080"
	public := Resource{URL: "https://search.example.com/mcp"}
	for _, test := range []struct {
		name, local, host string
		res               Resource
		origin            string // "" : no URL named, no document served
	}{
		{"public URL", "10.0.0.5:8080", evil, public, "https://search.example.com"},
		{"public URL on loopback", "127.0.0.1:8080", "127.0.0.1:8080", public, "https://search.example.com"},
		{"any Host on a public listener", "10.0.0.5:8080", evil, Resource{}, ""},
		{"other Host on a loopback listener", "127.0.0.1:8080", evil, Resource{}, ""},
		{"loopback Host on a loopback listener", "127.0.0.1:8080", "localhost:8080", Resource{}, "http://localhost:8080"},
		{"Host set by a trusted front", "", "abc.lambda-url.eu-west-1.on.aws", Resource{HostTrusted: true}, "https://abc.lambda-url.eu-west-1.on.aws"},
	} {
		t.Run(test.name, func(t *testing.T) {
			h, err := New(Config{Mode: ModeBearer, Bearer: mustParseBearer(t, strings.Repeat("ab", 32)), Resource: test.res}, &probe{})
			if err != nil {
				t.Fatal(err)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, onListener("/mcp", test.local, test.host))
			want := `Bearer resource_metadata="` + test.origin + `/.well-known/oauth-protected-resource"`
			if test.origin == "" {
				want = "Bearer"
			}
			if got := w.Header().Get("WWW-Authenticate"); w.Code != http.StatusUnauthorized || got != want {
				t.Errorf("challenge: got %d %q, want 401 %q", w.Code, got, want)
			}
			w = httptest.NewRecorder()
			MetadataHandler("/mcp", testIssuer, test.res).ServeHTTP(w, onListener(MetadataPath, test.local, test.host))
			checkMetadata(t, w, test.origin, test.res.URL)
		})
	}
}

// checkMetadata checks the protected resource metadata document: the
// resource at origin (or the public URL), or 404 naming no host.
func checkMetadata(t *testing.T, w *httptest.ResponseRecorder, origin, public string) {
	t.Helper()
	if origin == "" {
		if w.Code != http.StatusNotFound || strings.Contains(w.Body.String(), "evil") {
			t.Errorf("metadata: got %d %q, want 404 naming no host", w.Code, w.Body)
		}
		return
	}
	var doc map[string]any
	json.Unmarshal(w.Body.Bytes(), &doc)
	want := origin + "/mcp"
	if public != "" {
		want = public
	}
	if w.Code != http.StatusOK || doc["resource"] != want {
		t.Errorf("metadata: got %d %s, want resource %s", w.Code, w.Body, want)
	}
}

// TestParseResourceURL: the public URL must be an absolute https URL (http
// only for loopback) without credentials, query or fragment.
func TestParseResourceURL(t *testing.T) {
	for _, ok := range []string{"https://search.example.com/mcp", "http://127.0.0.1:8080/mcp", "https://h/prod/mcp"} {
		if err := CheckResourceURL(ok); err != nil {
			t.Errorf("%s: got %v, want it accepted", ok, err)
		}
	}
	for _, bad := range []string{"search.example.com/mcp", "http://search.example.com/mcp", "https://u:p@h/mcp", "https://h/mcp?x=1", "https://h/mcp#f", "ftp://h/mcp", "https:///mcp"} {
		if err := CheckResourceURL(bad); err == nil {
			t.Errorf("%s: got no error", bad)
		}
	}
}
