package requests

import (
	"context"
	"time"

	"github.com/mcpsearch/mcpsearch/ext/embed"
)

// Model is a language model that answers one instruction (system) and one
// message (user) with text.
type Model interface {
	Complete(ctx context.Context, system, user string) (string, error)
	// String names the model and its endpoint for errors; never a secret.
	String() string
}

// Calls bound the HTTP calls to a model: timeout, retries after a 429 or
// 5xx with backoff (honouring Retry-After), the answer's size. They are
// package embed's, which calls embeddings endpoints with the same bounds;
// here a nil *Calls, or a zero Timeout, means DefaultTimeout (a model
// writing requests takes longer than an embedding), and a zero
// MaxAnswerBytes DefaultMaxAnswerBytes.
type Calls = embed.Calls

// StatusError is an endpoint's refusal of a call: the HTTP status of its
// last answer, the start of what it said, and how many tries were made.
type StatusError = embed.StatusError

// Defaults of Calls here.
const (
	DefaultTimeout        = 2 * time.Minute
	DefaultMaxAnswerBytes = embed.DefaultMaxAnswerBytes
)

// post sends c with the bounds of calls, this package's defaults filled.
func post(ctx context.Context, calls *Calls, c embed.Call) ([]byte, error) {
	var o Calls
	if calls != nil {
		o = *calls
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	return o.Post(ctx, c)
}

// snippet is the start of a text, on one line, as an error quotes it.
func snippet(body []byte) string { return embed.Snippet(body) }
