package embed_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/mcpsearch/mcpsearch/ext/embed"
	"github.com/mcpsearch/mcpsearch/ext/redact/redacttest"
	"github.com/mcpsearch/mcpsearch/ext/redirect/redirecttest"
)

const (
	liveKey = "sk-live-0123456789abcdef"
	query   = "the query a user typed about invoices"
)

// TestRedirectsRefused: an endpoint answering 301, 302, 303, 307 or 308
// towards another port, another host or another scheme fails the call,
// saying so; the server there receives nothing — neither the key, nor
// the session token of a Bedrock call, nor the query's text. A redirect
// within the endpoint's origin is followed.
func TestRedirectsRefused(t *testing.T) {
	for _, status := range redirecttest.Statuses {
		for _, there := range redirecttest.Elsewhere(t, nil, "/v1/embeddings") {
			t.Run(fmt.Sprintf("%d %s", status, there.Why), func(t *testing.T) {
				origin := redirecttest.Origin(t, status, there)
				calls := &embed.Calls{Timeout: 5 * time.Second, Client: origin.Client()}
				for name, o := range map[string]embed.Options{
					"openai":  {Backend: embed.OpenAI, Endpoint: origin.URL + "/v1", Model: "m", APIKey: liveKey, Calls: calls},
					"bedrock": {Backend: embed.Bedrock, Endpoint: origin.URL, Region: "us-east-1", Model: "amazon.titan-embed-text-v2:0", Calls: calls, Credentials: sessionCreds},
				} {
					c, err := embed.New(o)
					if err != nil {
						t.Fatal(err)
					}
					_, err = c.EmbedQuery(context.Background(), query)
					if want := fmt.Sprintf("HTTP %d redirects to %s", status, there.Why); err == nil || !strings.Contains(err.Error(), want) {
						t.Errorf("%s: got %v, want an error saying %s", name, err, want)
					}
				}
				for _, r := range there.Seen() {
					t.Errorf("%s received %s %s: Authorization %q, X-Amz-Security-Token %q, body %q", there.Why, r.Method, r.Path,
						r.Header.Get("Authorization"), r.Header.Get("X-Amz-Security-Token"), r.Body)
				}
			})
		}
	}
	t.Run("same origin", func(t *testing.T) {
		ok := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			io.WriteString(w, `{"data":[{"index":0,"embedding":[0.5,0.5]}]}`)
		})
		origin := redirecttest.SameOrigin(t, http.StatusTemporaryRedirect, "/old/embeddings", "/v1/embeddings", ok)
		c, err := embed.New(embed.Options{Backend: embed.OpenAI, Endpoint: origin.URL + "/old", Model: "m", APIKey: liveKey, Calls: fast})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := c.EmbedQuery(context.Background(), query); err != nil {
			t.Errorf("a 307 within the origin: %v", err)
		}
		if seen := origin.Seen(); len(seen) != 2 || seen[1].Path != "/v1/embeddings" || !strings.Contains(seen[1].Body, query) {
			t.Errorf("got %+v, want /old then /v1 with the query", seen)
		}
	})
}

func sessionCreds(context.Context) (aws.Credentials, error) {
	return aws.Credentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", SessionToken: "IQoJb3JpZ2luX2VjEHoaCXVzLWVhc3QtMSJHMEUCIQ"}, nil
}

// echoServer refuses every call with its status, its body made by echo
// from the credential the call carried.
type echoServer struct {
	*httptest.Server
	mu     sync.Mutex
	status int
	echo   func(credential string) string
}

func newEchoServer(t *testing.T) *echoServer {
	s := &echoServer{status: http.StatusUnauthorized, echo: func(string) string { return "" }}
	s.Server = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		credential := strings.TrimPrefix(r.Header.Get("Authorization"), "Bearer ")
		if tok := r.Header.Get("X-Amz-Security-Token"); tok != "" {
			credential = tok
		}
		s.mu.Lock()
		status, body := s.status, s.echo(credential)
		s.mu.Unlock()
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	t.Cleanup(s.Close)
	return s
}

func (s *echoServer) set(status int, echo func(string) string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.status, s.echo = status, echo
}

// TestEchoedCredentialsRedacted: an endpoint that refuses a call quoting
// its API key (or, to a Bedrock call, its session token) upper-cased,
// spaced out, truncated, or rewritten by one or two of reversal, hex,
// base64, %XX, \u and \x escapes and URL escaping gets no piece of it
// into the error — which the server logs at warn, and mcpsearch build
// prints — and the error still says the status.
func TestEchoedCredentialsRedacted(t *testing.T) {
	srv := newEchoServer(t)
	openAI, err := embed.New(embed.Options{Backend: embed.OpenAI, Endpoint: srv.URL + "/v1", Model: "m", APIKey: liveKey, Calls: fast})
	if err != nil {
		t.Fatal(err)
	}
	bedrock, err := embed.New(embed.Options{Backend: embed.Bedrock, Endpoint: srv.URL, Region: "us-east-1", Model: "amazon.titan-embed-text-v2:0", Calls: fast, Credentials: sessionCreds})
	if err != nil {
		t.Fatal(err)
	}
	token, _ := sessionCreds(context.Background())
	for name, c := range map[string]struct {
		client *embed.Client
		secret string
	}{"openai": {openAI, liveKey}, "bedrock": {bedrock, token.SessionToken}} {
		forms := redacttest.Composed(c.secret)
		for how, f := range redacttest.Plain(c.secret) {
			forms[how] = f
		}
		for how, form := range forms {
			srv.set(http.StatusForbidden, func(string) string { return `{"error":"not allowed for ` + form + `"}` })
			_, err := c.client.EmbedQuery(context.Background(), query)
			if err == nil || !strings.Contains(err.Error(), "HTTP 403") {
				t.Fatalf("%s, %s: got %v, want the 403", name, how, err)
			}
			if leaks := redacttest.Leaks(err.Error(), c.secret); len(leaks) > 0 {
				t.Errorf("%s, %s: %q leaks %v", name, how, err, leaks)
			}
		}
	}
}

// TestRefusalShownSafely: what an error quotes of a refusal has its
// control characters (an escape sequence, a carriage return, a
// bidirectional override, bytes that are not UTF-8) written as escapes,
// and is at most 300 bytes however long the body.
func TestRefusalShownSafely(t *testing.T) {
	srv := newEchoServer(t)
	c, err := embed.New(embed.Options{Backend: embed.OpenAI, Endpoint: srv.URL + "/v1", Model: "m", Calls: fast})
	if err != nil {
		t.Fatal(err)
	}
	for body, want := range map[string]string{
		"\x1b[31mred\x1b[0m\rgone\x07":        `\x1b[31mred\x1b[0m gone\x07`, // the carriage return is white space
		"file\u202egnp.exe \u009b1m \xff\x00": `file\u202egnp.exe \u009b1m \xff\x00`,
		strings.Repeat("\x1b", 200<<10):       strings.Repeat(`\x1b`, 75) + "…",
	} {
		srv.set(http.StatusBadRequest, func(string) string { return body })
		_, err := c.EmbedQuery(context.Background(), query)
		if err == nil || !strings.Contains(err.Error(), "HTTP 400: "+want) {
			t.Errorf("body %.40q: got %q, want it to hold %q", body, err, want)
			continue
		}
		said := err.Error()[strings.Index(err.Error(), "HTTP 400: ")+len("HTTP 400: "):]
		if strings.ContainsFunc(said, func(r rune) bool { return r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == '\u202e' }) {
			t.Errorf("body %.40q: the error %q holds a control character", body, err)
		}
	}
}
