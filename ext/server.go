package ext

import (
	"cmp"
	"log/slog"
	"net/http"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// ExtensionID names the search extension in capabilities.extensions.
const ExtensionID = "io.github.mcpsearch/search"

// SupportedProtocolVersions are the MCP revisions the server speaks, newest
// first. JSON-RPC batching was removed in all of them.
var SupportedProtocolVersions = []string{
	mcp.ProtocolVersion20260728, mcp.ProtocolVersion20251125, mcp.ProtocolVersion20250618,
}

// Options configure a Server. A nil *Options means the defaults.
type Options struct {
	// Name and Version identify the server in initialize and discover
	// results. If empty, "mcpsearch" and "dev".
	Name, Version string
	// Instructions are sent to clients in initialize and discover results.
	// If empty, a short text about the search methods.
	Instructions string
	// PageSize is the number of items in a list page. If zero,
	// DefaultPageSize; at most MaxPageSize.
	PageSize int
	// MaxBodyBytes bounds a request body. If zero, 1 MiB.
	MaxBodyBytes int64
	// RequestTimeout bounds the work on one request. If zero, 10 seconds.
	RequestTimeout time.Duration
	// CursorKey signs cursors. Instances that serve one deployment must
	// share it. If empty, a key derived from the catalog version, which
	// detects garbled cursors but not deliberately forged ones.
	CursorKey []byte
	// Logger receives internal errors. If nil, slog.Default().
	Logger *slog.Logger
	// Caller forwards tools/call, prompts/get and resources/read of items
	// whose server has an upstream, found through the catalog's [Resolver].
	// If nil, no item can be called: every call is an unknown item.
	Caller Caller
	// UpstreamTimeout bounds one upstream call; it always ends before the
	// request's own deadline. If zero, DefaultUpstreamTimeout.
	UpstreamTimeout time.Duration
	// Meta, if not nil, turns on meta-tool mode: tools/list answers the
	// meta tools and the always-listed tools. See [NewMetaTools].
	Meta *MetaTools
}

// DefaultMaxBodyBytes is the request body limit unless configured.
const DefaultMaxBodyBytes = 1 << 20

const defaultInstructions = "This server indexes many MCP tools, prompts and resources. " +
	"Call tools/search (or prompts/search, resources/search, resources/templates/search) " +
	"with a plain-language query to find the few items that fit a task, instead of listing them all."

// Server answers MCP requests over Streamable HTTP from a Catalog. It is
// safe for concurrent use and keeps no state between requests.
type Server struct {
	catalog      Catalog
	cursors      *cursorCodec
	pageSize     int
	maxBodyBytes int64
	timeout      time.Duration
	logger       *slog.Logger
	info         mcp.Implementation
	lifecycle    http.Handler // mcp-go: initialize, discover, ping, notifications

	caller          Caller
	upstreamTimeout time.Duration
	meta            *MetaTools
}

// NewServer returns a Server answering from cat.
func NewServer(cat Catalog, opts *Options) *Server {
	if opts == nil {
		opts = &Options{}
	}
	s := &Server{
		catalog:      cat,
		cursors:      newCursorCodec(cat.Version(), opts.CursorKey),
		pageSize:     min(cmp.Or(opts.PageSize, DefaultPageSize), MaxPageSize),
		maxBodyBytes: cmp.Or(opts.MaxBodyBytes, DefaultMaxBodyBytes),
		timeout:      cmp.Or(opts.RequestTimeout, 10*time.Second),
		logger:       cmp.Or(opts.Logger, slog.Default()),
		info:         mcp.Implementation{Name: cmp.Or(opts.Name, "mcpsearch"), Version: cmp.Or(opts.Version, "dev")},

		caller:          opts.Caller,
		upstreamTimeout: cmp.Or(opts.UpstreamTimeout, DefaultUpstreamTimeout),
		meta:            opts.Meta,
	}
	s.lifecycle = s.newLifecycle(cmp.Or(opts.Instructions, defaultInstructions))
	return s
}

// newLifecycle builds the mcp-go server that answers what the extension
// does not: initialize, server/discover, ping and notifications. No item is
// registered with it; lists and searches never reach it.
func (s *Server) newLifecycle(instructions string) http.Handler {
	ext := s.extensionInfo()
	m := server.NewMCPServer(s.info.Name, s.info.Version,
		server.WithToolCapabilities(false),
		server.WithPromptCapabilities(false),
		server.WithResourceCapabilities(false, false),
		server.WithExtensions(map[string]any{ExtensionID: ext}),
		server.WithExperimental(map[string]any{"search": ext}),
		server.WithInstructions(instructions),
		server.WithRecovery(),
	)
	return server.NewStreamableHTTPServer(m,
		server.WithStateLess(true),
		server.WithDisableStreaming(true),
		server.WithDisableLocalhostProtection(true), // checked in ServeHTTP for every method
		server.WithStreamableHTTPProtocolVersions(SupportedProtocolVersions...),
		server.WithStreamableHTTPLogger(s.logger),
	)
}

// extensionInfo is the settings object of the search extension.
func (s *Server) extensionInfo() map[string]any {
	info := map[string]any{
		"methods":     SearchMethods,
		"maxPageSize": MaxLimit,
		"index":       s.catalog.Version(),
		"explain":     true, // see MetaExplain
	}
	if c := catalogSettings(s.catalog); c != nil {
		info["catalog"] = c
	}
	return info
}
