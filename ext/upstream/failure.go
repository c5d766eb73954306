package upstream

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"regexp"
	"strings"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpsearch/mcpsearch/ext"
)

// Failure returns err, a failure to reach or call the upstream of cfg, as
// the kind of failure and one clean cause (mcp-go's layers of "transport
// error: failed to send request: failed to send request: Post …" reduced
// to "cannot connect: connection refused"), with every configured value
// redacted (see [Config.Redact]). The gateway and the crawler report
// upstream failures through it only.
func (cfg *Config) Failure(err error) *ext.UpstreamError {
	var ue *ext.UpstreamError
	if errors.As(err, &ue) {
		return &ext.UpstreamError{Kind: ue.Kind, Detail: cfg.Redact(ue.Detail), Code: ue.Code}
	}
	out := classify(err)
	out.Detail = cfg.Redact(out.Detail)
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
	)
	switch {
	case errors.As(err, &unset):
		return &ext.UpstreamError{Kind: ext.UpstreamMissingCredential, Detail: fmt.Sprintf(
			"environment variable %s, used in upstream %s, is not set on this server", unset.Var, unset.Field)}
	case errors.As(err, &tooLarge):
		return &ext.UpstreamError{Kind: ext.UpstreamTooLarge, Detail: tooLarge.Error()}
	case errors.As(err, &exit):
		return &ext.UpstreamError{Kind: ext.UpstreamUnreachable, Detail: exit.Error()}
	case errors.As(err, &start):
		return &ext.UpstreamError{Kind: ext.UpstreamUnreachable, Detail: start.Error()}
	case errors.Is(err, errStdioRefused), errors.Is(err, errShuttingDown):
		return &ext.UpstreamError{Kind: ext.UpstreamUnavailable, Detail: err.Error()}
	case errors.Is(err, context.DeadlineExceeded):
		return &ext.UpstreamError{Kind: ext.UpstreamTimeout, Detail: "no answer in time"}
	case errors.Is(err, context.Canceled):
		return &ext.UpstreamError{Kind: ext.UpstreamTimeout, Detail: "the call was cancelled"}
	case errors.As(err, &te):
		return transportFailure(te.Err)
	}
	return answered(err)
}

// answered is an error the client built from the upstream's JSON-RPC error
// answer (mcp-go does not wrap those in a *transport.Error). The upstream's
// -32602 is kept.
func answered(err error) *ext.UpstreamError {
	out := &ext.UpstreamError{Kind: ext.UpstreamAnsweredError, Detail: err.Error()}
	if errors.Is(err, mcp.ErrInvalidParams) {
		out.Code = ext.CodeInvalidParams
	}
	return out
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
		return &ext.UpstreamError{Kind: kind, Detail: "HTTP " + m[1] + ": " + msg[len(m[0]):]}
	}
	if strings.HasPrefix(msg, "unexpected content type") || strings.HasPrefix(msg, "failed to decode response") {
		return &ext.UpstreamError{Kind: ext.UpstreamProtocolError, Detail: msg}
	}
	return &ext.UpstreamError{Kind: ext.UpstreamUnreachable, Detail: networkCause(err)}
}

// networkCause says why a connection failed, without the address or URL
// the standard library's errors carry.
func networkCause(err error) string {
	var (
		dns      *net.DNSError
		op       *net.OpError
		urlErr   *url.Error
		x509Err  x509.UnknownAuthorityError
		hostErr  x509.HostnameError
		certErr  *tls.CertificateVerificationError
		recordEr tls.RecordHeaderError
	)
	switch {
	case errors.As(err, &dns):
		if dns.IsNotFound {
			return "cannot resolve the host name: no such host"
		}
		return "cannot resolve the host name"
	case errors.As(err, &x509Err), errors.As(err, &hostErr), errors.As(err, &certErr):
		return "TLS: the server's certificate is not trusted for this host"
	case errors.As(err, &recordEr):
		return "TLS: the server does not speak TLS"
	case errors.As(err, &op):
		if op.Op == "dial" {
			return "cannot connect: " + innermost(op.Err).Error()
		}
		return "connection failed (" + op.Op + "): " + innermost(op.Err).Error()
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "the connection closed before the answer"
	case errors.As(err, &urlErr):
		return urlErr.Err.Error()
	}
	return err.Error()
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
