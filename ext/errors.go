package ext

import "errors"

// JSON-RPC error codes used by the extension.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
	// CodeUpstreamError is the code of a failed upstream call (see
	// [UpstreamError]).
	CodeUpstreamError = -32010
	// CodeOverloaded refuses a request that arrives while the server
	// already serves as many as it may (HTTP 503, with Retry-After).
	CodeOverloaded = -32011
)

// Error is a coded JSON-RPC error. Two Errors match under errors.Is when
// their codes are equal, so callers wrap a sentinel with context:
//
//	fmt.Errorf("%w: limit %d not in [1,%d]", ErrInvalidParams, n, MaxLimit)
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	// Data is the error's data member, if it has one.
	Data any `json:"data,omitempty"`
	// Public marks an internal error (CodeInternalError) whose message is
	// meant for the client, such as the request deadline's. The message of
	// any other internal error is logged, and the client gets a bare
	// "internal error".
	Public bool `json:"-"`
}

func (e *Error) Error() string { return e.Message }

// Is reports whether target is an *Error with the same code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// Sentinels to wrap.
var (
	ErrParse          = &Error{Code: CodeParseError, Message: "parse error"}
	ErrInvalidRequest = &Error{Code: CodeInvalidRequest, Message: "invalid request"}
	ErrMethodNotFound = &Error{Code: CodeMethodNotFound, Message: "method not found"}
	ErrInvalidParams  = &Error{Code: CodeInvalidParams, Message: "invalid params"}
	ErrInternal       = &Error{Code: CodeInternalError, Message: "internal error"}
	ErrOverloaded     = &Error{Code: CodeOverloaded, Message: "server overloaded"}
)

// ErrNotFound is wrapped by a Resolver that has no item of a name.
var ErrNotFound = errors.New("no such item")
