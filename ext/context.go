package ext

import "context"

type ctxKey int

const (
	accessKey ctxKey = iota
	subjectKey
)

// WithSubject returns ctx carrying the subject of the authenticated caller
// (a user or client id, never a credential). The authentication layer sets
// it; the server logs it with each request.
func WithSubject(ctx context.Context, subject string) context.Context {
	return context.WithValue(ctx, subjectKey, subject)
}

// SubjectFromContext returns the caller subject set by [WithSubject], or "".
func SubjectFromContext(ctx context.Context) string {
	s, _ := ctx.Value(subjectKey).(string)
	return s
}
