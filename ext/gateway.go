package ext

import (
	"context"
	"encoding/json"
)

// The gateway: tools/call, prompts/get and resources/read of a catalog item
// are forwarded to the upstream server the catalog names for it. The item is
// found by its canonical name (or URI) through a [Resolver], and a [Caller]
// reaches the upstream.

// Target is a catalog item a call reaches.
type Target struct {
	Kind Kind
	// Server is the catalog server the item belongs to.
	Server string
	// Name is the canonical name (tools, prompts) or URI (resources) the
	// client used.
	Name string
	// UpstreamName is the name, or URI, the upstream server knows the item by.
	UpstreamName string
	// Object is the MCP object as listed, with its canonical name. For a
	// resource read through a template, the template's object.
	Object json.RawMessage
	// Upstream is the server's "upstream" object from the catalog, or nil
	// when the catalog gives none (the item cannot be called).
	Upstream json.RawMessage
}

// Resolver finds catalog items by the names clients call them by.
// index.Index implements it; a Searcher that is not a Resolver has no item
// that can be called.
type Resolver interface {
	// Resolve returns the tool or prompt whose canonical name is name or,
	// for KindResource, the resource whose URI is name or else a resource
	// template that matches it. It returns an error wrapping ErrNotFound when
	// no item fits.
	Resolve(ctx context.Context, k Kind, name string) (*Target, error)
}

// Caller forwards one request to the upstream server of a target. The
// package ext/upstream implements it over mcp-go's client.
type Caller interface {
	// Call sends method ("tools/call", "prompts/get" or "resources/read")
	// with params to t's upstream, naming the item t.UpstreamName, and
	// returns the upstream's result. A failure is reported as an
	// *UpstreamError: the gateway sends and logs no other text of an error
	// a Caller returns, and logs its Said only at debug level.
	Call(ctx context.Context, t *Target, method string, params json.RawMessage) (json.RawMessage, error)
}

// UpstreamError is a failed upstream call as a Caller reports it: the kind
// of failure, a detail in the Caller's own words (never text an upstream
// chose) and, apart, what the upstream itself said. The Caller that makes
// it guarantees that Detail holds no value of the upstream's
// configuration (no expanded ${VAR}, no header value) and no text of the
// upstream's; the gateway sends Kind, Detail and Code to the client and
// Said to nobody.
type UpstreamError struct {
	Kind   UpstreamFailure
	Detail string
	// Code is the JSON-RPC error code the upstream answered, if it did.
	// Only CodeInvalidParams is passed on as the answer's code (the
	// caller's arguments were wrong); every other failure is
	// CodeUpstreamError.
	Code int
	// Said is what the upstream said of the failure, introduced by where
	// it comes from ("its message: …", "its stderr ends: …"): the message
	// of its JSON-RPC error, the body of an HTTP error, the last lines a
	// stdio process wrote to stderr. Configured values are redacted from
	// it, but it is free text that an upstream controls and may carry a
	// credential in a form no redaction knows: the gateway logs it at
	// debug level only and never sends it.
	Said string
}

// Error is the kind, the detail and what the upstream said: text for an
// operator (the crawler prints it), not for a client.
func (e *UpstreamError) Error() string {
	s := string(e.Kind)
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	if e.Said != "" {
		s += "; " + e.Said
	}
	return s
}

// UpstreamFailure is the kind of an upstream failure.
type UpstreamFailure string

// The kinds of upstream failure.
const (
	UpstreamUnreachable       UpstreamFailure = "unreachable"        // no connection, or the process would not start or died
	UpstreamTimeout           UpstreamFailure = "timeout"            // no answer within the upstream timeout
	UpstreamMissingCredential UpstreamFailure = "missing credential" // a ${VAR} the upstream needs is not set here
	UpstreamCredentialRefused UpstreamFailure = "credential refused" // HTTP 401 or 403
	UpstreamAnsweredError     UpstreamFailure = "upstream error"     // the upstream answered an error
	UpstreamTooLarge          UpstreamFailure = "result too large"   // the answer passed the gateway's limit
	UpstreamProtocolError     UpstreamFailure = "protocol error"     // the answer is not MCP over the configured transport
	UpstreamUnavailable       UpstreamFailure = "unavailable here"   // not reachable from this process (stdio in Lambda, shutting down)
	UpstreamMisconfigured     UpstreamFailure = "bad configuration"  // the catalog's upstream object is invalid
	UpstreamFailed            UpstreamFailure = "failed"             // a Caller's error that is not an *UpstreamError
)

// Selector finds catalog items by their exact names, for the select:
// queries of the search methods (see [SelectPrefix]). index.Index
// implements it; with a Searcher that is not a Selector, every selected
// name is unknown.
type Selector interface {
	// Select returns the items of kind k named name exactly: by canonical
	// name (tools, prompts), URI (resources) or URI template (resource
	// templates), those the caller (AccessFrom(ctx)) may see, in catalog
	// order. A URI several servers list names several resources. No item
	// is no error: an unknown name and a hidden one both give none, at
	// the same cost.
	Select(ctx context.Context, k Kind, name string) ([]Hit, error)
}
