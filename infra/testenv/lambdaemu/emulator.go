// Package lambdaemu emulates the AWS Lambda runtime API (2018-06-01) on
// 127.0.0.1, so that a real `bootstrap` binary can be run and invoked as
// Lambda runs it, in tests and benchmarks, without the AWS runtime
// interface emulator (which cannot be fetched here).
//
// The function process polls GET /2018-06-01/runtime/invocation/next,
// answers with POST …/invocation/{id}/response or …/error, and reports a
// failed start with POST /2018-06-01/runtime/init/error. Invoke queues an
// event and waits for the answer; the same is served over HTTP at
// POST /2015-03-31/functions/function/invocations, the path of AWS's own
// emulator.
package lambdaemu

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// FunctionError is what the function reported for an invocation (or for
// its start, through init/error).
type FunctionError struct {
	Type    string `json:"errorType"`
	Message string `json:"errorMessage"`
}

func (e *FunctionError) Error() string {
	return fmt.Sprintf("function error %s: %s", e.Type, e.Message)
}

// Emulator is a runtime API server for one function.
type Emulator struct {
	srv     *http.Server
	ln      net.Listener
	queue   chan *invocation
	pending sync.Map // request id → *invocation
	nextID  atomic.Int64
	timeout time.Duration

	mu      sync.Mutex
	initErr *FunctionError
	failed  chan struct{} // closed on init/error
}

type invocation struct {
	id       string
	event    []byte
	deadline time.Time
	done     chan result
}

type result struct {
	body []byte
	err  error
}

// Start listens on a free port of 127.0.0.1. timeout is the function
// timeout each invocation gets (its deadline header).
func Start(timeout time.Duration) (*Emulator, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, err
	}
	e := &Emulator{ln: ln, queue: make(chan *invocation), timeout: timeout, failed: make(chan struct{})}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /2018-06-01/runtime/invocation/next", e.next)
	mux.HandleFunc("POST /2018-06-01/runtime/invocation/{id}/response", e.respond)
	mux.HandleFunc("POST /2018-06-01/runtime/invocation/{id}/error", e.fail)
	mux.HandleFunc("POST /2018-06-01/runtime/init/error", e.initError)
	mux.HandleFunc("POST /2015-03-31/functions/function/invocations", e.invokeHTTP)
	e.srv = &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second}
	go e.srv.Serve(ln)
	return e, nil
}

// Addr is the host:port to put in AWS_LAMBDA_RUNTIME_API.
func (e *Emulator) Addr() string { return e.ln.Addr().String() }

// Close stops the server.
func (e *Emulator) Close() error { return e.srv.Close() }

// Invoke hands event to the function and returns its response payload. It
// fails with a *FunctionError when the function reports one, and when ctx
// ends first.
func (e *Emulator) Invoke(ctx context.Context, event []byte) ([]byte, error) {
	inv := &invocation{
		id:       "req-" + strconv.FormatInt(e.nextID.Add(1), 10),
		event:    event,
		deadline: time.Now().Add(e.timeout),
		done:     make(chan result, 1),
	}
	e.pending.Store(inv.id, inv)
	defer e.pending.Delete(inv.id)
	select {
	case e.queue <- inv:
	case <-e.failed:
		return nil, e.startError()
	case <-ctx.Done():
		return nil, fmt.Errorf("no function polled for the invocation: %w", ctx.Err())
	}
	select {
	case r := <-inv.done:
		return r.body, r.err
	case <-e.failed:
		return nil, e.startError()
	case <-ctx.Done():
		return nil, fmt.Errorf("invocation %s: %w", inv.id, ctx.Err())
	}
}

func (e *Emulator) startError() error {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.initErr
}

// next blocks until an invocation is queued and hands it to the function.
func (e *Emulator) next(w http.ResponseWriter, r *http.Request) {
	select {
	case inv := <-e.queue:
		h := w.Header()
		h.Set("Lambda-Runtime-Aws-Request-Id", inv.id)
		h.Set("Lambda-Runtime-Deadline-Ms", strconv.FormatInt(inv.deadline.UnixMilli(), 10))
		h.Set("Lambda-Runtime-Invoked-Function-Arn", "arn:aws:lambda:us-east-1:000000000000:function:mcpsearch")
		h.Set("Lambda-Runtime-Trace-Id", "Root=1-00000000-000000000000000000000000;Sampled=0")
		h.Set("Content-Type", "application/json")
		w.Write(inv.event)
	case <-r.Context().Done():
	}
}

func (e *Emulator) respond(w http.ResponseWriter, r *http.Request) {
	e.finish(w, r, func(body []byte) result { return result{body: body} })
}

func (e *Emulator) fail(w http.ResponseWriter, r *http.Request) {
	e.finish(w, r, func(body []byte) result { return result{err: decodeError(body)} })
}

// finish delivers the body of a response or error post to its invocation.
func (e *Emulator) finish(w http.ResponseWriter, r *http.Request, toResult func([]byte) result) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	v, ok := e.pending.Load(r.PathValue("id"))
	if !ok {
		http.Error(w, `{"errorType":"InvalidRequestID","errorMessage":"unknown request id"}`, http.StatusBadRequest)
		return
	}
	v.(*invocation).done <- toResult(body)
	w.WriteHeader(http.StatusAccepted)
}

func (e *Emulator) initError(w http.ResponseWriter, r *http.Request) {
	body, _ := io.ReadAll(r.Body)
	e.mu.Lock()
	if e.initErr == nil {
		e.initErr = decodeError(body)
		close(e.failed)
	}
	e.mu.Unlock()
	w.WriteHeader(http.StatusAccepted)
}

func decodeError(body []byte) *FunctionError {
	fe := &FunctionError{}
	if err := json.Unmarshal(body, fe); err != nil || fe.Type == "" && fe.Message == "" {
		fe = &FunctionError{Type: "Unknown", Message: strings.TrimSpace(string(body))}
	}
	return fe
}

// invokeHTTP serves Invoke over HTTP: the request body is the event, the
// response body the payload (or the function's error, with status 502).
func (e *Emulator) invokeHTTP(w http.ResponseWriter, r *http.Request) {
	event, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	payload, err := e.Invoke(r.Context(), event)
	var fe *FunctionError
	switch {
	case errors.As(err, &fe):
		w.WriteHeader(http.StatusBadGateway)
		json.NewEncoder(w).Encode(fe)
	case err != nil:
		http.Error(w, err.Error(), http.StatusGatewayTimeout)
	default:
		w.Header().Set("Content-Type", "application/json")
		w.Write(payload)
	}
}
