package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httputil"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/redirect/redirecttest"
	"github.com/mcpsearch/mcpsearch/ext/upstream/upstreamtest"
)

// redirectVars are the credentials of the upstreams of the redirect tests.
var redirectVars = map[string]string{"API_KEY": "key-0123456789abcdef", "TOKEN": "token-0123456789abcdef"}

// redirectedUpstream is an upstream at url with an API key and a bearer
// token from the environment.
func redirectedUpstream(url string) map[string]any {
	return map[string]any{"transport": "streamable-http", "url": url,
		"headers": map[string]string{"X-Api-Key": "${API_KEY}", "Authorization": "Bearer ${TOKEN}"}}
}

// proxyTo hands every request to the MCP server at mcpURL.
func proxyTo(t *testing.T, mcpURL string) http.Handler {
	u, err := url.Parse(mcpURL)
	if err != nil {
		t.Fatal(err)
	}
	return httputil.NewSingleHostReverseProxy(&url.URL{Scheme: u.Scheme, Host: u.Host})
}

// TestRedirectsStayInTheOrigin: an upstream that answers 301, 302, 303,
// 307 or 308 towards another port of its host, another host or another
// scheme fails the call as unreachable, saying the status and the
// difference; the server there (a real MCP server behind a recorder, so
// that a call that went there would succeed) receives nothing — no
// X-Api-Key, no Authorization, no call. mcp-go's streamable HTTP client
// sends with the http.Client the gateway gives it, so the policy holds
// for every request that carries the upstream's headers. A redirect
// within the upstream's origin (307, 308: /old to /mcp) is followed, the
// headers with it, and the call succeeds.
func TestRedirectsStayInTheOrigin(t *testing.T) {
	mcp := proxyTo(t, upstreamtest.Start(t))
	for _, status := range redirecttest.Statuses {
		for _, there := range redirecttest.Elsewhere(t, mcp, "/mcp") {
			t.Run(fmt.Sprintf("%d %s", status, there.Why), func(t *testing.T) {
				origin := redirecttest.Origin(t, status, there)
				c := New(&Options{Getenv: env(redirectVars), HTTPClient: origin.Client()})
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
				defer cancel()
				out, err := c.Call(ctx, target(redirectedUpstream(origin.URL+"/mcp"), "whoami"), "tools/call", json.RawMessage(`{"name":"gitlab__whoami"}`))
				var ue *ext.UpstreamError
				if !errors.As(err, &ue) || ue.Kind != ext.UpstreamUnreachable || !strings.Contains(ue.Detail, fmt.Sprintf("HTTP %d redirects to %s", status, there.Why)) {
					t.Errorf("got %s, %v; want unreachable: HTTP %d redirects to %s", out, err, status, there.Why)
				}
				if seen := there.Seen(); len(seen) > 0 {
					t.Errorf("%s received %d requests, the first %s with X-Api-Key %q and Authorization %q",
						there.Why, len(seen), seen[0].Method, seen[0].Header.Get("X-Api-Key"), seen[0].Header.Get("Authorization"))
				}
			})
		}
	}
	for _, status := range []int{http.StatusTemporaryRedirect, http.StatusPermanentRedirect} {
		t.Run(fmt.Sprintf("%d same origin", status), func(t *testing.T) {
			origin := redirecttest.SameOrigin(t, status, "/old", "/mcp", mcp)
			c := New(&Options{Getenv: env(redirectVars)})
			got := callText(t, c, target(redirectedUpstream(origin.URL+"/old"), "whoami"), `{"name":"gitlab__whoami"}`)
			if want := upstreamtest.WhoamiText("Bearer "+redirectVars["TOKEN"], Redacted); got != want {
				t.Errorf("got %q, want %q", got, want)
			}
			for _, r := range origin.Seen() {
				if r.Header.Get("X-Api-Key") != redirectVars["API_KEY"] {
					t.Errorf("%s %s arrived without its X-Api-Key", r.Method, r.Path)
				}
			}
		})
	}
}
