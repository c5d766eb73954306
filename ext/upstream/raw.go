package upstream

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/client/transport"

	"github.com/mcpsearch/mcpsearch/ext"
)

// A forwarded result is passed on as the upstream sent it. mcp-go's client
// decodes a result into its types, which would lose what they do not keep
// (a number of _meta beyond float64's precision, members MCP adds later),
// and turns an error answer into an error that keeps the message but not
// an unknown code; so the transports keep, in the call's context, the
// answer to the call's request, and the Caller passes on its result (once
// mcp-go has accepted it) or reports its error code.

type answerKey struct{}

// answer is the answer to the last request of method sent within a call:
// its result, or its error.
type answer struct {
	method string
	result json.RawMessage
	failed *ext.UpstreamError // the upstream's JSON-RPC error
}

// keepingAnswer returns ctx in which the transports keep the answer to
// method's requests into the returned answer.
func keepingAnswer(ctx context.Context, method string) (context.Context, *answer) {
	a := &answer{method: method}
	return context.WithValue(ctx, answerKey{}, a), a
}

// keepAnswer keeps resp if ctx asks for the answers to req's method.
func keepAnswer(ctx context.Context, req transport.JSONRPCRequest, resp *transport.JSONRPCResponse) {
	a, ok := ctx.Value(answerKey{}).(*answer)
	if !ok || resp == nil || req.Method != a.method {
		return
	}
	a.result, a.failed = nil, nil
	if resp.Error != nil {
		a.failed = answeredCode(resp.Error.Code, resp.Error.Message)
		return
	}
	a.result = resp.Result
}

// WrongIDError is an upstream's answer whose JSON-RPC id is not the id of
// the request it answers: it is refused, never passed on.
type WrongIDError struct {
	Sent string // the request's id, as mcp-go keys it ("int64:3")
	Got  string // the answer's id, likewise
}

func (e *WrongIDError) Error() string {
	return fmt.Sprintf("the answer to request %s has id %s", e.Sent, e.Got)
}

// checkID refuses resp when it answers another request than req.
func checkID(req transport.JSONRPCRequest, resp *transport.JSONRPCResponse) error {
	if resp == nil || resp.ID.String() == req.ID.String() {
		return nil
	}
	return &WrongIDError{Sent: req.ID.String(), Got: resp.ID.String()}
}
