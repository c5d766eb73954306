package main

import "context"

// restoringAfterFirst returns handler, calling restore as each call
// returns: restore is to act once (startgc.Restore), so the first request
// of a cold start is answered under the start's collector setting, and
// the process's own follows.
func restoringAfterFirst[E, R any](handler func(context.Context, E) (R, error), restore func()) func(context.Context, E) (R, error) {
	return func(ctx context.Context, ev E) (R, error) {
		defer restore()
		return handler(ctx, ev)
	}
}
