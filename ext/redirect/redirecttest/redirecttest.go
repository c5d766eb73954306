// Package redirecttest serves redirects on 127.0.0.1 and records what
// arrives where they point, for the tests of every client that follows
// package redirect's policy.
package redirecttest

import (
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
)

// Statuses are the redirects an HTTP server may answer.
var Statuses = []int{http.StatusMovedPermanently, http.StatusFound, http.StatusSeeOther, http.StatusTemporaryRedirect, http.StatusPermanentRedirect}

// Request is what a Recorder received.
type Request struct {
	Method, Path string
	Header       http.Header
	Body         string
}

// Recorder is a server on 127.0.0.1 that records every request and then
// hands it to its handler.
type Recorder struct {
	*httptest.Server
	mu   sync.Mutex
	seen []Request
}

// NewRecorder starts a Recorder answering with h (nil: 404) until tb
// ends; tls serves HTTPS (its Client trusts it).
func NewRecorder(tb testing.TB, h http.Handler, tls bool) *Recorder {
	tb.Helper()
	r := &Recorder{}
	if h == nil {
		h = http.NotFoundHandler()
	}
	record := http.HandlerFunc(func(w http.ResponseWriter, req *http.Request) {
		body, _ := io.ReadAll(req.Body)
		r.mu.Lock()
		r.seen = append(r.seen, Request{Method: req.Method, Path: req.URL.Path, Header: req.Header.Clone(), Body: string(body)})
		r.mu.Unlock()
		req.Body = io.NopCloser(strings.NewReader(string(body)))
		h.ServeHTTP(w, req)
	})
	if tls {
		r.Server = httptest.NewTLSServer(record)
	} else {
		r.Server = httptest.NewServer(record)
	}
	tb.Cleanup(r.Close)
	return r
}

// Seen returns the requests received so far.
func (r *Recorder) Seen() []Request {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]Request(nil), r.seen...)
}

// Port is the port the Recorder listens on.
func (r *Recorder) Port() string {
	_, port, _ := net.SplitHostPort(r.Listener.Addr().String())
	return port
}

// Redirecting is a handler that answers every request with status and a
// Location of to.
func Redirecting(status int, to string) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Location", to)
		w.WriteHeader(status)
	})
}

// Target is where a redirect points, away from the origin of a request
// to 127.0.0.1: the name of the difference and the URL of the Recorder
// there (whose origin differs in that way only, or, for "another scheme",
// in scheme and port).
type Target struct {
	Why string
	URL string
	*Recorder
}

// Elsewhere starts the three Recorders that a redirect from an origin of
// 127.0.0.1 (scheme https for "another scheme", whose Recorder serves
// http) may point to, each answering with h, and returns them with the
// path appended: another port of 127.0.0.1, another host (localhost, the
// same address), another scheme.
func Elsewhere(tb testing.TB, h http.Handler, path string) []Target {
	port := NewRecorder(tb, h, false)
	host := NewRecorder(tb, h, false)
	scheme := NewRecorder(tb, h, false)
	return []Target{
		{"another port", port.URL + path, port},
		{"another host", "http://localhost:" + host.Port() + path, host},
		{"another scheme", scheme.URL + path, scheme},
	}
}

// Origin starts the server a client calls, which answers every request
// with status and a Location of t.URL: over HTTPS for "another scheme"
// (its Client trusts it), else over HTTP.
func Origin(tb testing.TB, status int, t Target) *Recorder {
	tb.Helper()
	return NewRecorder(tb, Redirecting(status, t.URL), t.Why == "another scheme")
}

// SameOrigin starts a server that redirects requests for from with status
// to the path to of its own origin, and answers the others with h.
func SameOrigin(tb testing.TB, status int, from, to string, h http.Handler) *Recorder {
	tb.Helper()
	if h == nil {
		h = http.NotFoundHandler()
	}
	mux := http.NewServeMux()
	mux.Handle(from, Redirecting(status, to))
	mux.Handle("/", h)
	return NewRecorder(tb, mux, false)
}
