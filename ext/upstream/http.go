package upstream

import (
	"cmp"
	"context"
	"io"
	"log/slog"
	"net/http"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/client/transport"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/ext/redirect"
)

// httpTransport is mcp-go's streamable HTTP transport over an HTTP client
// that follows redirects within the upstream's origin only
// (redirect.SameOrigin: its headers and the call go nowhere else) and
// whose response bodies are cut at max bytes. mcp-go reads a JSON answer
// whole and an SSE event a line at a time: the cut bounds both, and this
// type reports it as a *TooLargeError (mcp-go loses the reader's error on
// the SSE path).
type httpTransport struct {
	*transport.StreamableHTTP
	bodies *limitedTransport
}

func newHTTPTransport(cfg *Config, hc *http.Client, max int64, logger *slog.Logger) (*httpTransport, error) {
	if !catalog.IsHTTPURL(cfg.URL) {
		return nil, &ext.UpstreamError{Kind: ext.UpstreamMisconfigured, Detail: errHTTPScheme.Error()}
	}
	c := redirect.Client(hc) // mcp-go sends every request of the transport with it
	bodies := &limitedTransport{base: cmp.Or[http.RoundTripper](c.Transport, http.DefaultTransport), max: max}
	c.Transport = bodies
	tr, err := transport.NewStreamableHTTP(cfg.URL, transport.WithHTTPHeaders(cfg.Headers),
		transport.WithHTTPBasicClient(c), transport.WithHTTPLogger(logger))
	if err != nil {
		return nil, &ext.UpstreamError{Kind: ext.UpstreamMisconfigured, Detail: "the url is not a valid URL"}
	}
	return &httpTransport{StreamableHTTP: tr, bodies: bodies}, nil
}

func (t *httpTransport) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	resp, err := t.StreamableHTTP.SendRequest(ctx, req)
	if err != nil && t.bodies.hit.Load() {
		err = &TooLargeError{Limit: t.bodies.max}
	}
	if err == nil {
		if err = checkID(req, resp); err != nil {
			return nil, err
		}
	}
	keepAnswer(ctx, req, resp)
	return resp, err
}

// limitedTransport cuts every response body at max bytes.
type limitedTransport struct {
	base http.RoundTripper
	max  int64
	hit  atomic.Bool // some body passed max
}

func (l *limitedTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	resp, err := l.base.RoundTrip(req)
	if err == nil {
		resp.Body = &limitedBody{ReadCloser: resp.Body, left: l.max, owner: l}
	}
	return resp, err
}

// limitedBody reads at most left more bytes, then fails with a
// *TooLargeError if the body goes on.
type limitedBody struct {
	io.ReadCloser
	left  int64
	owner *limitedTransport
}

func (b *limitedBody) Read(p []byte) (int, error) {
	if b.left < 0 {
		return 0, &TooLargeError{Limit: b.owner.max}
	}
	if int64(len(p)) > b.left+1 {
		p = p[:b.left+1] // one byte more tells a body of exactly max from a longer one
	}
	n, err := b.ReadCloser.Read(p)
	if int64(n) <= b.left {
		b.left -= int64(n)
		return n, err
	}
	n, b.left = int(b.left), -1
	b.owner.hit.Store(true)
	return n, &TooLargeError{Limit: b.owner.max}
}
