package ext

import "errors"

// JSON-RPC error codes used by the extension.
const (
	CodeParseError     = -32700
	CodeInvalidRequest = -32600
	CodeMethodNotFound = -32601
	CodeInvalidParams  = -32602
	CodeInternalError  = -32603
)

// Error is a coded JSON-RPC error. Two Errors match under errors.Is when
// their codes are equal, so callers wrap a sentinel with context:
//
//	fmt.Errorf("%w: limit %d not in [1,%d]", ErrInvalidParams, n, MaxLimit)
type Error struct {
	Code    int    `json:"code"`
	Message string `json:"message"`
	public  bool   // an internal error whose message is meant for the client
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
)

// wireError converts err into the error sent to the client. A coded error
// keeps its code and the full wrapped message; anything else becomes a bare
// internal error, its details left to the log (unless the server made it
// to be sent, as the deadline error).
func wireError(err error) *Error {
	var e *Error
	if errors.As(err, &e) && (e.Code != CodeInternalError || e.public) {
		return &Error{Code: e.Code, Message: err.Error()}
	}
	return &Error{Code: CodeInternalError, Message: "internal error"}
}
