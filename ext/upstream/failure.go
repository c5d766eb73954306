package upstream

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"regexp"
	"strings"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/redirect"
)

// Failure returns err, a failure to reach or call the upstream of cfg, as
// the kind of failure and one clean cause in this package's words
// (mcp-go's layers of "transport error: failed to send request: failed to
// send request: Post …" reduced to "cannot connect: connection refused"),
// and apart, as Said, what the upstream itself said (its error message,
// the body of an HTTP error, its stderr); every configured value is
// redacted from both (see [Config.Redact]). The gateway and the crawler
// report upstream failures through it only.
func (cfg *Config) Failure(err error) *ext.UpstreamError {
	var out *ext.UpstreamError
	if ue := (*ext.UpstreamError)(nil); errors.As(err, &ue) {
		out = &ext.UpstreamError{Kind: ue.Kind, Detail: ue.Detail, Code: ue.Code, Said: ue.Said}
	} else {
		out = classify(err)
	}
	out.Detail, out.Said = cfg.Redact(out.Detail), cfg.Redact(out.Said)
	return out
}

// Errors of the Caller itself.
var (
	errStdioRefused = errors.New("stdio upstreams run only when mcpsearch runs locally, not in Lambda")
	errShuttingDown = errors.New("the gateway is shutting down")
)

// TooLargeError is a message from an upstream longer than the limit.
type TooLargeError struct{ Limit int64 }

func (e *TooLargeError) Error() string {
	return fmt.Sprintf("the answer is larger than the limit of %d bytes", e.Limit)
}

// classify names the kind of err and its cause, in words that hold
// nothing of the configuration but what Redact then removes.
func classify(err error) *ext.UpstreamError {
	var (
		unset    *UnsetVarError
		tooLarge *TooLargeError
		exit     *ExitError
		start    *StartError
		te       *transport.Error
		wrongID  *WrongIDError
		refused  *redirect.RefusedError
	)
	switch {
	case errors.As(err, &refused): // before anything else could quote the Location
		return &ext.UpstreamError{Kind: ext.UpstreamUnreachable, Detail: refused.Error()}
	case errors.As(err, &unset):
		return &ext.UpstreamError{Kind: ext.UpstreamMissingCredential, Detail: fmt.Sprintf(
			"environment variable %s, used in upstream %s, is not set on this server", unset.Var, unset.Field)}
	case errors.As(err, &tooLarge):
		return &ext.UpstreamError{Kind: ext.UpstreamTooLarge, Detail: tooLarge.Error()}
	case errors.As(err, &exit):
		return exitFailure(exit)
	case errors.As(err, &start):
		return &ext.UpstreamError{Kind: ext.UpstreamUnreachable, Detail: start.Error()}
	case errors.Is(err, errStdioRefused), errors.Is(err, errShuttingDown):
		return &ext.UpstreamError{Kind: ext.UpstreamUnavailable, Detail: err.Error()}
	case errors.Is(err, context.DeadlineExceeded):
		return &ext.UpstreamError{Kind: ext.UpstreamTimeout, Detail: "no answer in time"}
	case errors.Is(err, context.Canceled):
		return &ext.UpstreamError{Kind: ext.UpstreamTimeout, Detail: "the call was cancelled"}
	case errors.As(err, &wrongID):
		return &ext.UpstreamError{Kind: ext.UpstreamProtocolError, Detail: "the answer is to another request: its JSON-RPC id is not the request's",
			Said: "its id: " + wrongID.Got}
	case errors.As(err, &te):
		return transportFailure(te.Err)
	}
	return answered(err)
}

// exitFailure is a stdio process that exited: its exit status, and the
// end of its stderr as what it said.
func exitFailure(exit *ExitError) *ext.UpstreamError {
	if exit.Stderr == "" {
		return &ext.UpstreamError{Kind: ext.UpstreamUnreachable, Detail: "the process exited (" + exit.State + ") and wrote nothing to stderr"}
	}
	return &ext.UpstreamError{Kind: ext.UpstreamUnreachable, Detail: "the process exited (" + exit.State + ")", Said: "its stderr ends:\n" + exit.Stderr}
}

// answered is an error the client built from the upstream's JSON-RPC error
// answer (mcp-go does not wrap those in a *transport.Error): the code, and
// the upstream's message as what it said. The Caller knows the code of
// every answer (see keepAnswer); here it is known only for the errors
// mcp-go names.
func answered(err error) *ext.UpstreamError {
	code := 0
	for c, sentinel := range codeErrors {
		if errors.Is(err, sentinel) {
			code = c
		}
	}
	return answeredCode(code, err.Error())
}

// codeErrors are the errors mcp-go makes of the JSON-RPC error codes it
// knows.
var codeErrors = map[int]error{
	mcp.PARSE_ERROR: mcp.ErrParseError, mcp.INVALID_REQUEST: mcp.ErrInvalidRequest, mcp.METHOD_NOT_FOUND: mcp.ErrMethodNotFound,
	mcp.INVALID_PARAMS: mcp.ErrInvalidParams, mcp.INTERNAL_ERROR: mcp.ErrInternalError, mcp.RESOURCE_NOT_FOUND: mcp.ErrResourceNotFound,
}

// answeredCode is the upstream's JSON-RPC error answer of code (0 if not
// known) with message.
func answeredCode(code int, message string) *ext.UpstreamError {
	detail := "it answered a JSON-RPC error"
	if code != 0 {
		detail = fmt.Sprintf("JSON-RPC error %d", code)
		if name, ok := codeNames[code]; ok {
			detail += " (" + name + ")"
		}
	}
	return &ext.UpstreamError{Kind: ext.UpstreamAnsweredError, Code: code, Detail: detail, Said: "its message: " + message}
}

// codeNames names the JSON-RPC error codes of the specification and of
// MCP, in the gateway's words.
var codeNames = map[int]string{
	mcp.PARSE_ERROR: "parse error", mcp.INVALID_REQUEST: "invalid request", mcp.METHOD_NOT_FOUND: "method not found",
	mcp.INVALID_PARAMS: "invalid params", mcp.INTERNAL_ERROR: "internal error", mcp.RESOURCE_NOT_FOUND: "resource not found",
}

// statusRE matches mcp-go's error for an HTTP status it has no error for.
var statusRE = regexp.MustCompile(`^request failed with status (\d+): `)

// transportFailure classifies what a transport returned.
func transportFailure(err error) *ext.UpstreamError {
	var auth *transport.AuthorizationRequiredError
	switch {
	case errors.As(err, &auth):
		return &ext.UpstreamError{Kind: ext.UpstreamCredentialRefused, Detail: "HTTP 401 Unauthorized"}
	case errors.Is(err, transport.ErrLegacySSEServer):
		return &ext.UpstreamError{Kind: ext.UpstreamProtocolError, Detail: "initialize was refused with an HTTP 4xx status: not a streamable HTTP MCP endpoint (legacy SSE servers are not supported)"}
	case errors.Is(err, transport.ErrSessionTerminated):
		return &ext.UpstreamError{Kind: ext.UpstreamUnreachable, Detail: "HTTP 404 Not Found"}
	case errors.Is(err, transport.ErrTransportClosed):
		return &ext.UpstreamError{Kind: ext.UpstreamUnreachable, Detail: "the process closed its output"}
	}
	msg := strings.TrimPrefix(err.Error(), "failed to send request: ")
	if m := statusRE.FindStringSubmatch(msg); m != nil {
		kind := ext.UpstreamAnsweredError
		if m[1] == "403" {
			kind = ext.UpstreamCredentialRefused
		}
		return &ext.UpstreamError{Kind: kind, Detail: "HTTP " + m[1], Said: "it said: " + msg[len(m[0]):]}
	}
	if rest, ok := strings.CutPrefix(msg, "unexpected content type"); ok {
		return &ext.UpstreamError{Kind: ext.UpstreamProtocolError, Detail: "the answer is neither JSON nor an event stream", Said: "its content type" + rest}
	}
	if rest, ok := strings.CutPrefix(msg, "response should contain RPC id: "); ok {
		return &ext.UpstreamError{Kind: ext.UpstreamProtocolError, Detail: "the answer has no JSON-RPC id", Said: "its answer: " + rest}
	}
	if rest, ok := strings.CutPrefix(msg, "failed to decode response: "); ok {
		return &ext.UpstreamError{Kind: ext.UpstreamProtocolError, Detail: "the answer is not a JSON-RPC message", Said: "decoding it: " + rest}
	}
	return networkFailure(err)
}

// networkFailure is a failure to connect or to read the answer. What the
// standard library says of a connection it could not make is its own
// words; what it says of an answer it could not read (a malformed HTTP
// response) may quote the upstream, and goes to Said.
func networkFailure(err error) *ext.UpstreamError {
	if cause, ok := networkCause(err); ok {
		return &ext.UpstreamError{Kind: ext.UpstreamUnreachable, Detail: cause}
	}
	return &ext.UpstreamError{Kind: ext.UpstreamUnreachable, Detail: "the connection failed", Said: "cause: " + err.Error()}
}

// networkCause says why a connection failed, without the address or URL
// the standard library's errors carry, and whether it knows.
func networkCause(err error) (string, bool) {
	var (
		dns      *net.DNSError
		op       *net.OpError
		x509Err  x509.UnknownAuthorityError
		hostErr  x509.HostnameError
		certErr  *tls.CertificateVerificationError
		recordEr tls.RecordHeaderError
	)
	switch {
	case errors.As(err, &dns):
		if dns.IsNotFound {
			return "cannot resolve the host name: no such host", true
		}
		return "cannot resolve the host name", true
	case errors.As(err, &x509Err), errors.As(err, &hostErr), errors.As(err, &certErr):
		return "TLS: the server's certificate is not trusted for this host", true
	case errors.As(err, &recordEr):
		return "TLS: the server does not speak TLS", true
	case errors.As(err, &op):
		if op.Op == "dial" {
			return "cannot connect: " + innermost(op.Err).Error(), true
		}
		return "connection failed (" + op.Op + "): " + innermost(op.Err).Error(), true
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "the connection closed before the answer", true
	}
	return "", false
}

// innermost is the last error of err's chain: the system call's error.
func innermost(err error) error {
	for {
		next := errors.Unwrap(err)
		if next == nil {
			return err
		}
		err = next
	}
}
