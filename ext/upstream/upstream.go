// Package upstream forwards tools/call, prompts/get and resources/read to
// the MCP servers a catalog names, with mcp-go's client. It implements
// [ext.Caller].
//
// A server's catalog file says how to reach it:
//
//	"upstream": {"transport": "streamable-http", "url": "https://…/mcp",
//	             "headers": {"Authorization": "Bearer ${GITLAB_TOKEN}"}}
//	"upstream": {"transport": "stdio", "command": "npx", "args": ["-y", "…"],
//	             "env": {"API_KEY": "${API_KEY}"}}
//
// ${VAR} references in url, headers, command, args and env are expanded at
// connect time from the serving process's environment (never from the
// client); a reference to an unset variable fails the call with an error
// that names the variable, not a value.
//
// A failed call is an *ext.UpstreamError: the kind of failure and one
// clean cause in this package's words, and apart what the upstream said,
// from which every expanded value and every header value is redacted in
// every form package redact knows (see [Config.Failure]); mcp-go's own
// log lines are redacted likewise. A
// result passes on with the secrets of the configuration redacted (see
// [Config.RedactResult]); an answer whose JSON-RPC id is not the
// request's is a *WrongIDError, never a result. What is read from an
// upstream is bounded: one answer of more than [Options.MaxResultBytes]
// fails the call with a *TooLargeError having held at most that much of
// it.
//
// A call to a streamable HTTP upstream connects, initializes, sends the
// one request and closes: nothing depends on an earlier request, so any
// instance answers any call. It follows a redirect only within the
// origin of the upstream's URL (redirect.SameOrigin): a redirect
// elsewhere fails the call as unreachable, before the headers or the
// call are sent there. Stdio upstreams are refused unless
// [Options.AllowStdio] is set (it is not in Lambda); their processes start
// on first use and are kept, one per upstream, shared by concurrent calls,
// until a transport failure or a timeout drops one or [Caller.Close] ends
// them all.
package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// Transports of upstream servers (the catalog's).
const (
	TransportHTTP  = catalog.TransportHTTP
	TransportStdio = catalog.TransportStdio
)

// Options configure a Caller. A nil *Options means the defaults.
type Options struct {
	// Getenv looks up the variables ${VAR} references name. If nil, every
	// variable is unset.
	Getenv func(name string) (string, bool)
	// AllowStdio permits stdio upstreams, which run a process per call. Set
	// it only where processes may be started (never in Lambda).
	AllowStdio bool
	// HTTPClient sends requests to streamable HTTP upstreams. If nil,
	// http.DefaultClient; call deadlines come from the context. Its
	// CheckRedirect is replaced by redirect.SameOrigin (see
	// TransportOptions).
	HTTPClient *http.Client
	// Name and Version identify this gateway to upstreams. If empty,
	// "mcpsearch" and "dev".
	Name, Version string
	// MaxResultBytes bounds what is read of one answer of an upstream (an
	// HTTP response body, a line of a stdio process) and the size of the
	// result passed on. If zero, DefaultMaxResultBytes.
	MaxResultBytes int64
	// Logger receives mcp-go's log lines about upstream connections, with
	// configured values redacted. If nil, they are dropped.
	Logger *slog.Logger
}

// DefaultMaxResultBytes fits Lambda's 6 MB response limit: the Lambda
// response carries the JSON-RPC answer as a JSON string, which escapes
// each '"' and '\\' of the answer, so an answer of 3,000,000 bytes is at
// most 6,000,000 bytes there, plus the small envelope. Text answers grow
// far less (a few percent).
const DefaultMaxResultBytes = 3_000_000

// DefaultMaxMessageBytes bounds a message of an upstream's transport unless
// TransportOptions say otherwise.
const DefaultMaxMessageBytes = DefaultMaxResultBytes

// Caller forwards calls to upstream servers. It is safe for concurrent use
// and keeps no connection between calls.
type Caller struct {
	opts  Options
	stdio pool
}

var _ ext.Caller = (*Caller)(nil)

// New returns a Caller.
func New(opts *Options) *Caller {
	c := &Caller{}
	if opts != nil {
		c.opts = *opts
	}
	if c.opts.Getenv == nil {
		c.opts.Getenv = func(string) (string, bool) { return "", false }
	}
	if c.opts.Name == "" {
		c.opts.Name = "mcpsearch"
	}
	if c.opts.Version == "" {
		c.opts.Version = "dev"
	}
	if c.opts.MaxResultBytes <= 0 {
		c.opts.MaxResultBytes = DefaultMaxResultBytes
	}
	return c
}

// Call implements ext.Caller. Every error it returns is an
// *ext.UpstreamError made by [Config.Failure].
func (c *Caller) Call(ctx context.Context, t *ext.Target, method string, params json.RawMessage) (json.RawMessage, error) {
	cfg, err := ParseConfig(t.Upstream)
	if err != nil {
		return nil, &ext.UpstreamError{Kind: ext.UpstreamMisconfigured, Detail: err.Error()}
	}
	live, err := cfg.Expand(c.opts.Getenv)
	if err != nil {
		return nil, cfg.Failure(err)
	}
	out, err := c.call(ctx, live, t, method, params)
	if err != nil {
		return nil, live.Failure(err)
	}
	return out, nil
}

// call sends the request to the upstream of the expanded cfg.
func (c *Caller) call(ctx context.Context, cfg *Config, t *ext.Target, method string, params json.RawMessage) (json.RawMessage, error) {
	if cfg.Transport == TransportStdio {
		return c.callStdio(ctx, cfg, t, method, params)
	}
	cl, err := c.connectHTTP(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer func() { go cl.Close() }() // a hung upstream must not hold the answer
	ctx, a := keepingAnswer(ctx, method)
	res, err := send(ctx, cl, t, method, params)
	return c.result(cfg, res, a, err)
}

// callStdio sends the call through the pooled client of a stdio upstream.
func (c *Caller) callStdio(ctx context.Context, cfg *Config, t *ext.Target, method string, params json.RawMessage) (json.RawMessage, error) {
	if !c.opts.AllowStdio {
		return nil, errStdioRefused
	}
	e, err := c.stdio.get(ctx, cfg, func(ctx context.Context) (*client.Client, error) {
		// The process outlives this start: it is ended by the pool.
		tr, err := cfg.NewTransport(c.transportOptions())
		if err != nil {
			return nil, err
		}
		return c.initialize(ctx, context.Background(), tr)
	})
	if err != nil {
		return nil, err
	}
	rctx, a := keepingAnswer(ctx, method)
	res, err := send(rctx, e.cl, t, method, params)
	c.stdio.release(cfg, e, ctx, err)
	return c.result(cfg, res, a, err)
}

// result is the upstream's result as passed on: as the upstream sent it
// (raw.go), else as mcp-go decoded it, with the secrets of cfg redacted
// (see [Config.RedactResult]). It is refused when its JSON is longer than
// the limit (escaping can make it longer than what was read). An error
// answer is reported with its code (raw.go).
func (c *Caller) result(cfg *Config, res any, a *answer, err error) (json.RawMessage, error) {
	if err != nil && a.failed != nil {
		return nil, a.failed
	}
	if err != nil {
		return nil, err
	}
	out := a.result
	if out == nil {
		if out, err = json.Marshal(res); err != nil {
			return nil, err
		}
	}
	out = cfg.RedactResult(out)
	if passedOnBytes(out) > c.opts.MaxResultBytes {
		return nil, &TooLargeError{Limit: c.opts.MaxResultBytes}
	}
	return out, nil
}

// passedOnBytes is at most how long raw becomes when it is encoded again
// with json.Marshal, as the gateway's _meta entry and Lambda's response
// encoding do: <, > and & become \u003c (6 bytes), U+2028 and U+2029 (3
// bytes) \u2028.
func passedOnBytes(raw []byte) int64 {
	n := len(raw)
	for _, c := range []string{"<", ">", "&"} {
		n += 5 * bytes.Count(raw, []byte(c))
	}
	for _, c := range []string{"\u2028", "\u2029"} {
		n += 3 * bytes.Count(raw, []byte(c))
	}
	return int64(n)
}

func (c *Caller) transportOptions() *TransportOptions {
	return &TransportOptions{HTTPClient: c.opts.HTTPClient, MaxMessageBytes: c.opts.MaxResultBytes, Logger: c.opts.Logger}
}

// Close ends the processes of stdio upstreams. Calls after Close fail.
func (c *Caller) Close() error {
	c.stdio.close()
	return nil
}

// connectHTTP starts and initializes a client of a streamable HTTP upstream.
func (c *Caller) connectHTTP(ctx context.Context, cfg *Config) (*client.Client, error) {
	tr, err := cfg.NewTransport(c.transportOptions())
	if err != nil {
		return nil, err
	}
	return c.initialize(ctx, ctx, tr)
}

// initialize starts a client on tr, which lives as long as life (a stdio
// process is started with it), and initializes it within ctx.
func (c *Caller) initialize(ctx, life context.Context, tr transport.Interface) (*client.Client, error) {
	cl := client.NewClient(tr)
	if err := cl.Start(life); err != nil {
		return nil, fmt.Errorf("connecting: %w", err)
	}
	init := mcp.InitializeRequest{}
	init.Params.ClientInfo = mcp.Implementation{Name: c.opts.Name, Version: c.opts.Version}
	if _, err := cl.Initialize(ctx, init); err != nil {
		go cl.Close()
		return nil, fmt.Errorf("initializing: %w", err)
	}
	return cl, nil
}

// send sends the one request of a call, naming the item as the upstream
// knows it.
func send(ctx context.Context, cl *client.Client, t *ext.Target, method string, params json.RawMessage) (any, error) {
	switch method {
	case "tools/call":
		var p struct{ Arguments any }
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, fmt.Errorf("arguments: %w", err)
		}
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = t.UpstreamName, p.Arguments
		return cl.CallTool(ctx, req)
	case "prompts/get":
		var p struct{ Arguments map[string]string }
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, errors.New("arguments must map names to strings")
		}
		req := mcp.GetPromptRequest{}
		req.Params.Name, req.Params.Arguments = t.UpstreamName, p.Arguments
		return cl.GetPrompt(ctx, req)
	case "resources/read":
		req := mcp.ReadResourceRequest{}
		req.Params.URI = t.UpstreamName
		return cl.ReadResource(ctx, req)
	}
	return nil, fmt.Errorf("method %q is not forwarded", method)
}
