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
}

func (e *Error) Error() string { return e.Message }

// Is reports whether target is an *Error with the same code.
func (e *Error) Is(target error) bool {
	t, ok := target.(*Error)
	return ok && t.Code == e.Code
}

// Sentinels to wrap.
var (
	ErrParse          = &Error{CodeParseError, "parse error"}
	ErrInvalidRequest = &Error{CodeInvalidRequest, "invalid request"}
	ErrMethodNotFound = &Error{CodeMethodNotFound, "method not found"}
	ErrInvalidParams  = &Error{CodeInvalidParams, "invalid params"}
	ErrInternal       = &Error{CodeInternalError, "internal error"}
)

// wireError converts err into the error sent to the client. A coded error
// keeps its code and the full wrapped message; anything else becomes a bare
// internal error, its details left to the log.
func wireError(err error) *Error {
	var e *Error
	if errors.As(err, &e) && e.Code != CodeInternalError {
		return &Error{Code: e.Code, Message: err.Error()}
	}
	return &Error{Code: CodeInternalError, Message: "internal error"}
}
