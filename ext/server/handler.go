package server

import (
	"cmp"
	"log/slog"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpsearch/mcpsearch/ext"
)

// SupportedProtocolVersions are the MCP revisions the server speaks, newest
// first. JSON-RPC batching was removed in all of them.
var SupportedProtocolVersions = []string{
	mcp.ProtocolVersion20260728, mcp.ProtocolVersion20251125, mcp.ProtocolVersion20250618,
}

// Options configure a Handler. A nil *Options means the defaults.
type Options struct {
	// Name and Version identify the server in initialize and discover
	// results. If empty, "mcpsearch" and "dev".
	Name, Version string
	// Instructions are sent to clients in initialize and discover results,
	// followed by the caller's directory of servers when the searcher is
	// an [ext.Directory]. If empty, a short text about the search methods.
	Instructions string
	// DirectoryChars is the budget, in characters, of the directory of
	// servers (see [DirectoryText]). If zero, DefaultDirectoryChars; if
	// negative, no directory is sent.
	DirectoryChars int
	// PageSize is the number of items in a list page. If zero,
	// ext.DefaultPageSize; at most ext.MaxPageSize.
	PageSize int
	// MaxBodyBytes bounds a request body. If zero, DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// MaxResponseBytes bounds an answer's body: a page that would pass it
	// is cut short, with a cursor and a note (see ext.MetaTruncated). If
	// zero, DefaultMaxResponseBytes, which fits Lambda's response limit.
	MaxResponseBytes int
	// RequestTimeout bounds the work on one request, from the start of
	// reading its body (forwarded calls have their own bound,
	// UpstreamTimeout). If zero, 10 seconds.
	RequestTimeout time.Duration
	// MaxInFlight bounds the requests served at once; one past it is
	// refused with HTTP 503 and -32011 (ext.CodeOverloaded). If zero,
	// DefaultMaxInFlight.
	MaxInFlight int
	// CursorKey signs cursors. Instances that serve one deployment must
	// share it. If empty, a key derived from the index version, which
	// detects garbled cursors but not deliberately forged ones.
	CursorKey []byte
	// Logger receives internal errors. If nil, slog.Default().
	Logger *slog.Logger
	// Caller forwards tools/call, prompts/get and resources/read of items
	// whose server has an upstream, found through the searcher's
	// [ext.Resolver]. If nil, no item can be called: every call is an
	// unknown item.
	Caller ext.Caller
	// UpstreamTimeout bounds one upstream call; it always ends before the
	// request's own deadline. If zero, DefaultUpstreamTimeout.
	UpstreamTimeout time.Duration
	// Meta, if not nil, turns on meta-tool mode: tools/list answers the
	// meta tools and the always-listed tools. See [NewMetaTools].
	Meta *MetaTools
}

// DefaultMaxBodyBytes is the request body limit unless configured.
const DefaultMaxBodyBytes = 1 << 20

// DefaultUpstreamTimeout bounds one upstream call unless configured.
const DefaultUpstreamTimeout = 30 * time.Second

const defaultInstructions = "This server indexes many MCP tools, prompts and resources. " +
	"Call tools/search (or prompts/search, resources/search, resources/templates/search) " +
	"with a plain-language query to find the few items that fit a task, instead of listing them all; " +
	"a query select:name1,name2 loads the named items."

// Handler answers MCP requests over Streamable HTTP from a Searcher. It is
// safe for concurrent use and keeps no state between requests.
type Handler struct {
	searcher         ext.Searcher
	cursors          *cursorCodec
	pageSize         int
	maxBodyBytes     int64
	maxResponseBytes int
	timeout          time.Duration
	inFlight         inFlight
	logger           *slog.Logger
	info             mcp.Implementation
	instructions     string
	capabilities     func() (map[string]any, error) // of initialize and server/discover results, built on the first (lifecycle.go)

	directoryChars int              // < 0: no directory
	directories    ext.Memo[string] // the directory text of each access key

	caller          ext.Caller
	upstreamTimeout time.Duration
	meta            *MetaTools
}

// New returns a Handler answering from s.
func New(s ext.Searcher, opts *Options) *Handler {
	if opts == nil {
		opts = &Options{}
	}
	h := &Handler{
		searcher:         s,
		cursors:          newCursorCodec(s.Version(), opts.CursorKey),
		pageSize:         min(cmp.Or(opts.PageSize, ext.DefaultPageSize), ext.MaxPageSize),
		maxBodyBytes:     cmp.Or(opts.MaxBodyBytes, DefaultMaxBodyBytes),
		maxResponseBytes: cmp.Or(opts.MaxResponseBytes, DefaultMaxResponseBytes),
		timeout:          cmp.Or(opts.RequestTimeout, 10*time.Second),
		inFlight:         newInFlight(cmp.Or(opts.MaxInFlight, DefaultMaxInFlight)),
		logger:           cmp.Or(opts.Logger, slog.Default()),
		info:             mcp.Implementation{Name: cmp.Or(opts.Name, "mcpsearch"), Version: cmp.Or(opts.Version, "dev")},
		instructions:     cmp.Or(opts.Instructions, defaultInstructions),

		directoryChars: cmp.Or(opts.DirectoryChars, DefaultDirectoryChars),

		caller:          opts.Caller,
		upstreamTimeout: cmp.Or(opts.UpstreamTimeout, DefaultUpstreamTimeout),
		meta:            opts.Meta,
	}
	h.capabilities = sync.OnceValues(func() (map[string]any, error) { return capabilitiesOf(s) })
	return h
}
