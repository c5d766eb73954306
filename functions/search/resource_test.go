package main

import (
	"context"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestMetadataNamesNoClientHost: in jwt mode on a public listener, the 401
// challenge and the protected resource metadata never name the Host a
// client sent: they name MCPSEARCH_PUBLIC_URL when it is set, and no URL
// (404 for the document) when it is not.
func TestMetadataNamesNoClientHost(t *testing.T) {
	idx := mustIndex(t)
	for _, test := range []struct {
		name, publicURL, challenge, resource string
	}{
		{"no public URL", "", "Bearer", ""},
		{"public URL", "https://search.example.com/mcp", `Bearer resource_metadata="https://search.example.com/.well-known/oauth-protected-resource"`, `"resource":"https://search.example.com/mcp"`},
	} {
		t.Run(test.name, func(t *testing.T) {
			env := maps.Clone(jwtEnv)
			env["MCPSEARCH_ADDR"], env["MCPSEARCH_PUBLIC_URL"] = "0.0.0.0:8080", test.publicURL
			h, err := newGatewayHandler(t, idx, env)
			if err != nil {
				t.Fatal(err)
			}
			w := serveFromHost(h, http.MethodPost, "/mcp", "evil.example")
			if got := w.Header().Get("WWW-Authenticate"); w.Code != http.StatusUnauthorized || got != test.challenge {
				t.Errorf("challenge: got %d %q, want 401 %q", w.Code, got, test.challenge)
			}
			w = serveFromHost(h, http.MethodGet, "/.well-known/oauth-protected-resource", "evil.example")
			body := w.Body.String()
			if strings.Contains(body, "evil") || test.resource == "" && w.Code != http.StatusNotFound || test.resource != "" && !strings.Contains(body, test.resource) {
				t.Errorf("metadata: got %d %s, want %s", w.Code, body, map[bool]string{true: "404", false: test.resource}[test.resource == ""])
			}
		})
	}
}

// serveFromHost sends a request with Host host to h, as a listener on a
// public address receives it.
func serveFromHost(h http.Handler, method, path, host string) *httptest.ResponseRecorder {
	r := httptest.NewRequest(method, path, strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"ping"}`))
	r.Host = host
	r.Header.Set("Content-Type", "application/json")
	local, _ := net.ResolveTCPAddr("tcp", "10.0.0.5:8080")
	r = r.WithContext(context.WithValue(r.Context(), http.LocalAddrContextKey, local))
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w
}
