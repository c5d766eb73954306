// Package redirect is the redirect policy of every HTTP client of
// mcpsearch that carries a credential or a user's text: the gateway's
// client of streamable HTTP upstreams (ext/upstream), the hosted
// embeddings client (ext/embed), the drafting of requests
// (infra/requests) and the function's call to Secrets Manager. It
// imports the standard library only.
//
// Go's http.Client follows up to ten redirects anywhere, and on a 307 or
// 308 sends the body again, with every header but Authorization and
// Cookie to another host, and with those too to the same host on another
// port. A server could so redirect an API key in X-Api-Key, a SigV4
// session token or a query's text to any address. [SameOrigin] follows a
// redirect only to the origin of the first request (scheme, host and
// port alike), where its headers and body were meant to go anyway, and
// refuses any other with a [*RefusedError]: the caller sees the refusal,
// not what the other origin would have answered.
package redirect

import (
	"fmt"
	"net/http"
	"net/url"
	"strings"
)

// MaxRedirects is how many redirects within the origin a request follows.
const MaxRedirects = 5

// RefusedError is a redirect not followed: the status of the answer that
// asked for it and what differs about where it pointed. It quotes no URL
// (a Location may hold what a server should not have echoed).
type RefusedError struct {
	Status int    // 301, 302, 303, 307, 308
	Why    string // "another host", "another port", "another scheme", "too many redirects"
}

func (e *RefusedError) Error() string {
	return fmt.Sprintf("HTTP %d redirects to %s: not followed (the request and its credentials go to the origin configured only)", e.Status, e.Why)
}

// SameOrigin is an http.Client's CheckRedirect: req may follow the
// redirect only if it goes to the origin of via[0], the first request,
// and fewer than MaxRedirects have been followed.
func SameOrigin(req *http.Request, via []*http.Request) error {
	status := 0
	if req.Response != nil {
		status = req.Response.StatusCode
	}
	if len(via) > MaxRedirects {
		return &RefusedError{Status: status, Why: "too many redirects"}
	}
	if why := otherOrigin(via[0].URL, req.URL); why != "" {
		return &RefusedError{Status: status, Why: why}
	}
	return nil
}

// Client returns a copy of c (http.DefaultClient if nil) whose redirects
// are checked by SameOrigin.
func Client(c *http.Client) *http.Client {
	out := *http.DefaultClient
	if c != nil {
		out = *c
	}
	out.CheckRedirect = SameOrigin
	return &out
}

// otherOrigin says how to differs from the origin of from ("" when it
// does not): its scheme, its host or its port (a missing port is the
// scheme's).
func otherOrigin(from, to *url.URL) string {
	switch {
	case !strings.EqualFold(from.Scheme, to.Scheme):
		return "another scheme"
	case !strings.EqualFold(from.Hostname(), to.Hostname()):
		return "another host"
	case port(from) != port(to):
		return "another port"
	}
	return ""
}

func port(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	switch strings.ToLower(u.Scheme) {
	case "https":
		return "443"
	case "http":
		return "80"
	}
	return ""
}
