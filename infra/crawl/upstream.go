package crawl

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpsearch/mcpsearch/ext/upstream"
)

// recorder is a transport that keeps the raw result of every list
// response, so the catalog holds each object exactly as the upstream wrote
// it (mcp-go's typed results drop fields they do not know). The client
// still drives the protocol: negotiation, request _meta, cursors.
type recorder struct {
	transport.Interface
	mu      sync.Mutex
	results map[string][]json.RawMessage // method → results, in order
}

var listMethods = map[string]bool{
	string(mcp.MethodToolsList): true, string(mcp.MethodPromptsList): true,
	string(mcp.MethodResourcesList): true, string(mcp.MethodResourcesTemplatesList): true,
}

func (r *recorder) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	resp, err := r.Interface.SendRequest(ctx, req)
	if err == nil && resp != nil && resp.Error == nil && listMethods[req.Method] {
		r.mu.Lock()
		r.results[req.Method] = append(r.results[req.Method], resp.Result)
		r.mu.Unlock()
	}
	return resp, err
}

// SetRequestHandler forwards server-to-client requests (ping, sampling…).
func (r *recorder) SetRequestHandler(h transport.RequestHandler) {
	if b, ok := r.Interface.(transport.BidirectionalInterface); ok {
		b.SetRequestHandler(h)
	}
}

// items returns the raw objects under key of every recorded result of method.
func (r *recorder) items(method, key string) ([]json.RawMessage, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := []json.RawMessage{}
	for i, res := range r.results[method] {
		var page map[string]json.RawMessage
		var list []json.RawMessage
		if err := json.Unmarshal(res, &page); err != nil {
			return nil, fmt.Errorf("%s page %d: %w", method, i+1, err)
		}
		if raw := page[key]; len(raw) > 0 && string(raw) != "null" {
			if err := json.Unmarshal(raw, &list); err != nil {
				return nil, fmt.Errorf("%s page %d: %s: %w", method, i+1, key, err)
			}
		}
		out = append(out, list...)
	}
	return out, nil
}

// httpRecorder is a recorder over Streamable HTTP: the client asks the
// transport for these to set the protocol version header and to learn
// whether the stateless protocol is possible.
type httpRecorder struct {
	*recorder
	http httpConn
}

// httpConn is what the client asks of a Streamable HTTP transport.
type httpConn interface {
	SetProtocolVersion(v string)
	RequiresLegacyProtocol() bool
}

func (r httpRecorder) SetProtocolVersion(v string)  { r.http.SetProtocolVersion(v) }
func (r httpRecorder) RequiresLegacyProtocol() bool { return r.http.RequiresLegacyProtocol() }

// maxMessageBytes bounds one message of an upstream (a list page, a
// resource read): far above any real page, it only stops a runaway
// upstream from exhausting memory.
const maxMessageBytes = 64 << 20

// session is one connected upstream.
type session struct {
	c    *client.Client
	cfg  *ServerConfig // expanded
	rec  *recorder
	init *mcp.InitializeResult
}

// connect starts the transport of s (already expanded) and initializes.
// Its errors, and those of the session's requests (see failure), give the
// kind of failure and one cause, with the values of s redacted.
func connect(ctx context.Context, s *ServerConfig) (*session, error) {
	tr, err := s.NewTransport(&upstream.TransportOptions{MaxMessageBytes: maxMessageBytes})
	if err != nil {
		return nil, s.Failure(err)
	}
	rec := &recorder{Interface: tr, results: map[string][]json.RawMessage{}}
	c := client.NewClient(rec)
	if h, ok := tr.(httpConn); ok {
		c = client.NewClient(httpRecorder{rec, h})
	}
	if err := c.Start(ctx); err != nil {
		what := s.Transport
		if s.Command != "" {
			what = strconv.Quote(s.Redact(s.Command))
		}
		return nil, fmt.Errorf("starting %s: %w", what, s.Failure(err))
	}
	req := mcp.InitializeRequest{}
	req.Params.ClientInfo = mcp.Implementation{Name: "mcpsearch-crawl", Version: "1"}
	init, err := c.Initialize(ctx, req)
	if err != nil {
		closeWithin(c, time.Second)
		return nil, fmt.Errorf("initializing: %w", s.Failure(err))
	}
	return &session{c: c, cfg: s, rec: rec, init: init}, nil
}

// failure is err of a request of the session, as connect's are.
func (s *session) failure(err error) error { return s.cfg.Failure(err) }

// closeWithin closes c, giving up waiting after d (a stuck process is
// killed by its context anyway).
func closeWithin(c *client.Client, d time.Duration) {
	done := make(chan struct{})
	go func() { c.Close(); close(done) }()
	select {
	case <-done:
	case <-time.After(d):
	}
}

// listAll lists every page of the kinds the server's capabilities declare.
func (s *session) listAll(ctx context.Context) error {
	caps := s.init.Capabilities
	if caps.Tools != nil {
		if err := drain(s.c.IterTools(ctx, mcp.ListToolsRequest{})); err != nil {
			return fmt.Errorf("tools/list: %w", s.failure(err))
		}
	}
	if caps.Prompts != nil {
		if err := drain(s.c.IterPrompts(ctx, mcp.ListPromptsRequest{})); err != nil {
			return fmt.Errorf("prompts/list: %w", s.failure(err))
		}
	}
	if caps.Resources != nil {
		if err := drain(s.c.IterResources(ctx, mcp.ListResourcesRequest{})); err != nil {
			return fmt.Errorf("resources/list: %w", s.failure(err))
		}
		// The resources capability covers templates too, and servers without
		// any often lack the method: that is an empty list, not a failure.
		err := drain(s.c.IterResourceTemplates(ctx, mcp.ListResourceTemplatesRequest{}))
		if err != nil && !errors.Is(err, mcp.ErrMethodNotFound) {
			return fmt.Errorf("resources/templates/list: %w", s.failure(err))
		}
	}
	return nil
}

// drain consumes an iterator; the recorder keeps the pages.
func drain[T any](seq func(yield func(T, error) bool)) error {
	for _, err := range seq {
		if err != nil {
			return err
		}
	}
	return nil
}

// Content is the text of one resource, as stored in a catalog file's
// resourceContents.
type Content struct {
	URI      string `json:"uri"`
	MimeType string `json:"mimeType,omitempty"`
	Text     string `json:"text"`
}

// readStats counts what reading resources did.
type readStats struct{ read, truncated, binary, failed int }

// readTexts reads each listed resource and keeps its text content, cut to
// max bytes (at a character boundary). Binary contents are left out; a
// resource that fails to read is counted and skipped, not fatal.
func (s *session) readTexts(ctx context.Context, resources []json.RawMessage, max int) ([]Content, readStats, error) {
	var out []Content
	var st readStats
	for _, raw := range resources {
		var r struct {
			URI string `json:"uri"`
		}
		if json.Unmarshal(raw, &r) != nil || r.URI == "" {
			continue
		}
		res, err := s.c.ReadResource(ctx, mcp.ReadResourceRequest{Params: mcp.ReadResourceParams{URI: r.URI}})
		if ctx.Err() != nil {
			return nil, st, fmt.Errorf("resources/read %s: %w", r.URI, ctx.Err())
		}
		if err != nil {
			st.failed++
			continue
		}
		c, ok := textOf(r.URI, res.Contents)
		if !ok {
			st.binary++
			continue
		}
		if len(c.Text) > max {
			c.Text = truncateUTF8(c.Text, max)
			st.truncated++
		}
		st.read++
		out = append(out, c)
	}
	return out, st, nil
}

// textOf joins the text contents a read returned for uri.
func textOf(uri string, contents []mcp.ResourceContents) (Content, bool) {
	c := Content{URI: uri}
	found := false
	for _, rc := range contents {
		t, ok := rc.(mcp.TextResourceContents)
		if !ok || (t.URI != "" && t.URI != uri) {
			continue
		}
		if found {
			c.Text += "\n"
		}
		c.Text += t.Text
		c.MimeType = cmp.Or(c.MimeType, t.MIMEType)
		found = true
	}
	return c, found
}

// truncateUTF8 cuts s to at most n bytes without splitting a character.
func truncateUTF8(s string, n int) string {
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}
