package ext

import (
	"context"
	"errors"
	"fmt"
	"time"
)

// tooDeep reports whether the arrays and objects of the JSON text body nest
// deeper than max. It scans bytes once, without decoding, so that a deeply
// nested body is refused before any decoder recurses into it.
func tooDeep(body []byte, max int) bool {
	depth, inString, escaped := 0, false, false
	for _, c := range body {
		switch {
		case inString:
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
		case c == '"':
			inString = true
		case c == '[' || c == '{':
			if depth++; depth > max {
				return true
			}
		case c == ']' || c == '}':
			depth--
		}
	}
	return false
}

// callWithin runs the method of req and answers when it returns or when
// ctx ends, whichever is first: a catalog that does not heed its context
// still cannot hold the answer past the deadline. The method's goroutine
// then finishes on its own; its result is dropped.
func (s *Server) callWithin(ctx context.Context, req *request) (result, error) {
	type outcome struct {
		res result
		err error
	}
	start := time.Now()
	if err := ctx.Err(); err != nil {
		// Past the deadline already (a Lambda event that arrives late): no
		// race between a quick answer and the deadline decides the reply.
		return nil, s.deadlineError(ctx, start, err)
	}
	done := make(chan outcome, 1)
	go func() {
		res, err := s.call(ctx, req)
		done <- outcome{res, err}
	}()
	select {
	case o := <-done:
		if o.err != nil && ctx.Err() != nil {
			return nil, s.deadlineError(ctx, start, o.err)
		}
		return o.res, o.err
	case <-ctx.Done():
		return nil, s.deadlineError(ctx, start, ctx.Err())
	}
}

// deadlineError explains a request cut by its deadline (the request
// timeout, or the Lambda invocation's deadline if that is sooner) or by the
// client going away.
func (s *Server) deadlineError(ctx context.Context, start time.Time, cause error) error {
	took := time.Since(start).Round(time.Millisecond)
	if errors.Is(ctx.Err(), context.Canceled) {
		return fmt.Errorf("request cancelled by the client after %s: %w", took, cause)
	}
	return &Error{Code: CodeInternalError, public: true, Message: fmt.Sprintf(
		"request deadline exceeded: no answer within %s (the limit is %s per request, less if the invocation ends sooner)",
		took, s.timeout)}
}
