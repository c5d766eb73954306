package embed

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"time"

	"github.com/mcpsearch/mcpsearch/ext/redirect"
)

// Calls bound the HTTP calls to a model endpoint, a shared service: the
// embeddings calls of this package and infra/requests' calls to a
// language model. A nil *Calls means the defaults.
type Calls struct {
	// Timeout bounds each try of a call. If zero, DefaultTimeout.
	Timeout time.Duration
	// Retries is how many times a call answered 429 or 5xx is tried again,
	// after Backoff, then twice as long each time (or the Retry-After the
	// answer asks, at most MaxBackoff). Zero: never.
	Retries int
	// Backoff is the first wait before a retry. If zero, DefaultBackoff.
	Backoff time.Duration
	// MaxAnswerBytes bounds each answer read. If zero, the call's own
	// bound (Call.MaxAnswer).
	MaxAnswerBytes int64
	// Client sends the calls. If nil, a client without its own timeout
	// (Timeout bounds each try). It is copied, its CheckRedirect replaced
	// by redirect.SameOrigin: a redirect to another origin is refused, so
	// that neither the key nor the text goes there.
	Client *http.Client
}

// Defaults of Calls and Call.
const (
	DefaultTimeout        = 30 * time.Second
	DefaultBackoff        = time.Second
	MaxBackoff            = 30 * time.Second
	DefaultMaxAnswerBytes = 1 << 20
)

// errorSnippetBytes bounds what an error quotes of a refusal's body.
const errorSnippetBytes = 300

func (c *Calls) orDefaults() Calls {
	var o Calls
	if c != nil {
		o = *c
	}
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Backoff <= 0 {
		o.Backoff = DefaultBackoff
	}
	o.Client = redirect.Client(o.Client)
	return o
}

// Call is one JSON POST to a model endpoint.
type Call struct {
	URL  string
	Body []byte
	// MaxAnswer bounds the answer read, in bytes, unless
	// Calls.MaxAnswerBytes does. If zero, DefaultMaxAnswerBytes.
	MaxAnswer int64
	// Prepare, if set, sets the headers of each try (a signature is made
	// anew).
	Prepare func(*http.Request) error
	// Redact, if set, takes secrets out of what the endpoint answered
	// before an error quotes it, beyond those Post takes out itself: the
	// values of the credential headers the call carried (see
	// credentialHeaders), in every form package redact knows.
	Redact func(string) string
}

// Post sends call, tried as c says, and returns the body of a 200 answer.
func (c *Calls) Post(ctx context.Context, call Call) ([]byte, error) {
	return c.orDefaults().post(ctx, call)
}

// StatusError is an endpoint's refusal of a call: the HTTP status of its
// last answer, the start of what it said, and how many tries were made.
type StatusError struct {
	Status int
	Said   string
	Tries  int
}

func (e *StatusError) Error() string {
	if e.Tries > 1 {
		return fmt.Sprintf("HTTP %d: %s (after %d tries)", e.Status, e.Said, e.Tries)
	}
	return fmt.Sprintf("HTTP %d: %s", e.Status, e.Said)
}

// withHint adds to a final refusal what the operator should check.
func withHint(err error) error {
	var s *StatusError
	if !errors.As(err, &s) {
		return err
	}
	switch s.Status {
	case http.StatusUnauthorized, http.StatusForbidden:
		return fmt.Errorf("%w (check the API key or the AWS credentials and their permission to call the model)", err)
	case http.StatusNotFound:
		return fmt.Errorf("%w (check the endpoint URL and the model name)", err)
	}
	return err
}

// post sends c and returns the body of a 200 answer, trying again after a
// 429 or 5xx as o says; any other refusal (401, 403, 404 …) is final.
func (o Calls) post(ctx context.Context, c Call) ([]byte, error) {
	if o.MaxAnswerBytes > 0 {
		c.MaxAnswer = o.MaxAnswerBytes
	} else if c.MaxAnswer <= 0 {
		c.MaxAnswer = DefaultMaxAnswerBytes
	}
	wait := o.Backoff
	for try := 1; ; try++ {
		a, err := o.try(ctx, c)
		if err != nil || a.status == http.StatusOK {
			return a.body, err
		}
		refusal := &StatusError{Status: a.status, Said: a.said(c.Redact), Tries: try}
		if !retryable(a.status) || try > o.Retries {
			return nil, refusal
		}
		if a.retryAfter > 0 {
			wait = min(a.retryAfter, MaxBackoff)
		}
		if err := sleep(ctx, jitter(wait)); err != nil {
			return nil, fmt.Errorf("%w; then %w", refusal, err)
		}
		wait = min(2*wait, MaxBackoff)
	}
}

// answer is what one try got: the body and status, the wait the answer
// asks for before another try, and the credentials the try sent.
type answer struct {
	body       []byte
	status     int
	retryAfter time.Duration
	sent       []string
}

// try sends c once, within o.Timeout.
func (o Calls) try(ctx context.Context, c Call) (answer, error) {
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, c.URL, bytes.NewReader(c.Body))
	if err != nil {
		return answer{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	if c.Prepare != nil {
		if err := c.Prepare(req); err != nil {
			return answer{}, err
		}
	}
	resp, err := o.Client.Do(req)
	if err != nil {
		return answer{}, o.transportError(ctx, err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, c.MaxAnswer+1))
	if err != nil {
		return answer{}, o.transportError(ctx, err)
	}
	if int64(len(body)) > c.MaxAnswer {
		return answer{}, fmt.Errorf("the answer is over %d bytes", c.MaxAnswer)
	}
	return answer{body: body, status: resp.StatusCode, retryAfter: retryAfter(resp.Header.Get("Retry-After")), sent: sentCredentials(req)}, nil
}

// transportError says a try's failure plainly: its timeout, or what the
// connection did (the URL the client names holds no secret: keys travel
// in headers), or the redirect refused (redirect.RefusedError, which
// quotes no Location). A deadline of the caller's context stays one, so that a
// caller can tell it (errors.Is context.DeadlineExceeded).
func (o Calls) transportError(ctx context.Context, err error) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return fmt.Errorf("no answer within %s: %w", o.Timeout, context.DeadlineExceeded)
	}
	var uerr *url.Error
	if errors.As(err, &uerr) {
		return uerr.Err // the caller names the endpoint once
	}
	return err
}

func retryable(status int) bool {
	return status == http.StatusTooManyRequests || status >= 500
}

// retryAfter reads a Retry-After of whole seconds (dates are ignored).
func retryAfter(v string) time.Duration {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n <= 0 {
		return 0
	}
	return time.Duration(min(n, int(MaxBackoff/time.Second))) * time.Second
}

// jitter spreads d over [d/2, d], so that concurrent calls refused
// together do not come back together.
func jitter(d time.Duration) time.Duration {
	return d/2 + rand.N(d/2+1)
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}
