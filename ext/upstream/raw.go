package upstream

import (
	"context"
	"encoding/json"

	"github.com/mark3labs/mcp-go/client/transport"
)

// A forwarded result is passed on as the upstream sent it. mcp-go's client
// decodes a result into its types, which would lose what they do not keep
// (a number of _meta beyond float64's precision, members MCP adds later);
// so the transports keep, in the call's context, the bytes of the result
// of the call's request, and the Caller passes those on once mcp-go has
// accepted the answer.

type rawKey struct{}

// rawResult is the result of the last request of method sent within a
// call.
type rawResult struct {
	method string
	bytes  json.RawMessage
}

// keepingRaw returns ctx in which the transports keep the result of
// method's requests into the returned rawResult.
func keepingRaw(ctx context.Context, method string) (context.Context, *rawResult) {
	r := &rawResult{method: method}
	return context.WithValue(ctx, rawKey{}, r), r
}

// keepRaw keeps resp's result if ctx asks for the results of req's method.
func keepRaw(ctx context.Context, req transport.JSONRPCRequest, resp *transport.JSONRPCResponse) {
	r, ok := ctx.Value(rawKey{}).(*rawResult)
	if ok && resp != nil && resp.Error == nil && req.Method == r.method {
		r.bytes = resp.Result
	}
}
