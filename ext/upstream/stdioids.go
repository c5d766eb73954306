package upstream

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"sync"

	"github.com/mark3labs/mcp-go/mcp"
)

// maxAbandoned bounds the ids of requests that ended unanswered which an
// idWatch remembers.
const maxAbandoned = 256

// idWatch reads a stdio process's output on its way to mcp-go, which
// hands each answer to the request waiting for its id and drops an answer
// that no request waits for: the request it was meant for would wait
// until its deadline. idWatch fails at once, with a *WrongIDError, every
// request waiting on a process that answers an id it was never sent (nor
// sent and given up on: a late answer is no error).
type idWatch struct {
	r    io.Reader
	line []byte // the current line so far (lineLimit bounds it)

	mu        sync.Mutex
	waiting   map[string]context.CancelCauseFunc // by id, as mcp-go keys it
	abandoned map[string]bool                    // requests that ended unanswered
}

func newIDWatch(r io.Reader) *idWatch {
	return &idWatch{r: r, waiting: map[string]context.CancelCauseFunc{}, abandoned: map[string]bool{}}
}

func (w *idWatch) Read(p []byte) (int, error) {
	n, err := w.r.Read(p)
	for b := p[:n]; len(b) > 0; {
		i := bytes.IndexByte(b, '\n')
		if i < 0 {
			w.line = append(w.line, b...)
			break
		}
		line := b[:i]
		if len(w.line) > 0 {
			line = append(w.line, line...)
		}
		w.check(line)
		w.line, b = w.line[:0], b[i+1:]
	}
	if cap(w.line) > 64<<10 {
		w.line = nil // do not keep a long line's buffer for the process's life
	}
	return n, err
}

// wait registers a request of id: its context is ctx, cancelled with a
// *WrongIDError when the process answers an id it was not sent. done
// ends the request, answered or not.
func (w *idWatch) wait(ctx context.Context, id string) (_ context.Context, done func(answered bool)) {
	ctx, cancel := context.WithCancelCause(ctx)
	w.mu.Lock()
	w.waiting[id] = cancel
	w.mu.Unlock()
	return ctx, func(answered bool) {
		w.mu.Lock()
		delete(w.waiting, id)
		if !answered {
			if len(w.abandoned) >= maxAbandoned {
				clear(w.abandoned)
			}
			w.abandoned[id] = true
		}
		w.mu.Unlock()
		cancel(nil)
	}
}

// check fails every waiting request when line is an answer to an id that
// no request has.
func (w *idWatch) check(line []byte) {
	var msg struct {
		ID     *mcp.RequestId `json:"id"`
		Method string         `json:"method"`
	}
	if json.Unmarshal(line, &msg) != nil || msg.Method != "" || msg.ID == nil || msg.ID.IsNil() {
		return // not an answer, or one mcp-go cannot route either
	}
	got := msg.ID.String()
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, ok := w.waiting[got]; ok || w.abandoned[got] {
		return
	}
	for sent, cancel := range w.waiting {
		cancel(&WrongIDError{Sent: sent, Got: got})
	}
}

// wrongID is the *WrongIDError that ended ctx, if one did.
func wrongID(ctx context.Context) *WrongIDError {
	var w *WrongIDError
	if errors.As(context.Cause(ctx), &w) {
		return w
	}
	return nil
}
