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
// A call to a streamable HTTP upstream connects, initializes, sends the
// one request and closes: nothing depends on an earlier request, so any
// instance answers any call. Stdio upstreams are refused unless
// [Options.AllowStdio] is set (it is not in Lambda); their processes start
// on first use and are kept, one per upstream, shared by concurrent calls,
// until a transport failure or a timeout drops one or [Caller.Close] ends
// them all.
package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpsearch/mcpsearch/ext"
)

// Transports of upstream servers.
const (
	TransportHTTP  = "streamable-http"
	TransportStdio = "stdio"
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
	// http.DefaultClient; call deadlines come from the context.
	HTTPClient *http.Client
	// Name and Version identify this gateway to upstreams. If empty,
	// "mcpsearch" and "dev".
	Name, Version string
}

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
	return c
}

// Call implements ext.Caller.
func (c *Caller) Call(ctx context.Context, t *ext.Target, method string, params json.RawMessage) (json.RawMessage, error) {
	cfg, err := ParseConfig(t.Upstream)
	if err != nil {
		return nil, err
	}
	if cfg, err = c.expand(cfg); err != nil {
		return nil, err
	}
	if cfg.Transport == TransportStdio {
		return c.callStdio(ctx, cfg, t, method, params)
	}
	cl, err := c.connectHTTP(ctx, cfg)
	if err != nil {
		return nil, err
	}
	defer func() { go cl.Close() }() // a hung upstream must not hold the answer
	return result(send(ctx, cl, t, method, params))
}

// callStdio sends the call through the pooled client of a stdio upstream.
func (c *Caller) callStdio(ctx context.Context, cfg *Config, t *ext.Target, method string, params json.RawMessage) (json.RawMessage, error) {
	if !c.opts.AllowStdio {
		return nil, errors.New("stdio upstreams run only when mcpsearch runs locally, not in Lambda")
	}
	e, err := c.stdio.get(ctx, cfg, func(ctx context.Context) (*client.Client, error) {
		// The process outlives this start: it is ended by the pool.
		tr, err := cfg.NewTransport(nil)
		if err != nil {
			return nil, err
		}
		return c.initialize(ctx, context.Background(), tr)
	})
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", cfg.Command, err)
	}
	res, err := send(ctx, e.cl, t, method, params)
	c.stdio.release(cfg, e, ctx, err)
	return result(res, err)
}

func result(res any, err error) (json.RawMessage, error) {
	if err != nil {
		return nil, fromClientError(err)
	}
	return json.Marshal(res)
}

// Close ends the processes of stdio upstreams. Calls after Close fail.
func (c *Caller) Close() error {
	c.stdio.close()
	return nil
}

// expand replaces the ${VAR} references of cfg from the serving process's
// environment.
func (c *Caller) expand(cfg *Config) (*Config, error) {
	out, err := cfg.Expand(c.opts.Getenv)
	var unset *UnsetVarError
	if errors.As(err, &unset) {
		return nil, fmt.Errorf("environment variable %s, used in upstream %s, is not set on this server", unset.Var, unset.Field)
	}
	return out, err
}

// connectHTTP starts and initializes a client of a streamable HTTP upstream.
func (c *Caller) connectHTTP(ctx context.Context, cfg *Config) (*client.Client, error) {
	tr, err := cfg.NewTransport(c.opts.HTTPClient)
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
			return nil, fmt.Errorf("%w: arguments: %v", ext.ErrInvalidParams, err)
		}
		req := mcp.CallToolRequest{}
		req.Params.Name, req.Params.Arguments = t.UpstreamName, p.Arguments
		return cl.CallTool(ctx, req)
	case "prompts/get":
		var p struct{ Arguments map[string]string }
		if err := json.Unmarshal(params, &p); err != nil {
			return nil, fmt.Errorf("%w: arguments must map names to strings", ext.ErrInvalidParams)
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

// fromClientError keeps the code of a JSON-RPC error the upstream sent.
func fromClientError(err error) error {
	var coded *ext.Error
	switch {
	case errors.As(err, &coded):
		return err
	case errors.Is(err, mcp.ErrInvalidParams):
		return &ext.Error{Code: ext.CodeInvalidParams, Message: err.Error()}
	case errors.Is(err, mcp.ErrMethodNotFound):
		return &ext.Error{Code: ext.CodeMethodNotFound, Message: err.Error()}
	}
	return err
}
