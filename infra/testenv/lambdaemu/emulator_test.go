package lambdaemu

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"
)

// fakeRuntime plays a function against the runtime API: it echoes each
// event upper-cased, or reports an error for events saying "fail".
func fakeRuntime(t *testing.T, addr string, invocations int) {
	base := "http://" + addr + "/2018-06-01/runtime"
	for range invocations {
		resp, err := http.Get(base + "/invocation/next")
		if err != nil {
			t.Error(err)
			return
		}
		event, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		id := resp.Header.Get("Lambda-Runtime-Aws-Request-Id")
		if resp.Header.Get("Lambda-Runtime-Deadline-Ms") == "" || id == "" {
			t.Errorf("next: headers %v", resp.Header)
		}
		path, body := "/response", bytes.ToUpper(event)
		if string(event) == `"fail"` {
			path, body = "/error", []byte(`{"errorType":"Boom","errorMessage":"it failed"}`)
		}
		r, err := http.Post(base+"/invocation/"+id+path, "application/json", bytes.NewReader(body))
		if err != nil {
			t.Errorf("post %s: %v", path, err)
			return
		}
		if r.StatusCode != http.StatusAccepted {
			t.Errorf("post %s: %s", path, r.Status)
		}
		r.Body.Close()
	}
}

func TestRuntimeProtocol(t *testing.T) {
	e, err := Start(3 * time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	// the runtime's last post is answered after the invocation it
	// completes: wait for it before the emulator closes and the test ends
	// (a while at most: a test failing early leaves it waiting for work)
	runtime := make(chan struct{})
	go func() {
		defer close(runtime)
		fakeRuntime(t, e.Addr(), 3)
	}()
	defer func() {
		select {
		case <-runtime:
		case <-time.After(10 * time.Second):
		}
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	got, err := e.Invoke(ctx, []byte(`"hello"`))
	if err != nil || string(got) != `"HELLO"` {
		t.Errorf("invoke: got %s, %v", got, err)
	}
	_, err = e.Invoke(ctx, []byte(`"fail"`))
	var fe *FunctionError
	if !errors.As(err, &fe) || fe.Type != "Boom" {
		t.Errorf("function error: got %v", err)
	}
	resp, err := http.Post(fmt.Sprintf("http://%s/2015-03-31/functions/function/invocations", e.Addr()), "application/json", strings.NewReader(`"over http"`))
	if err != nil {
		t.Fatal(err)
	}
	body, _ := io.ReadAll(resp.Body)
	if string(body) != `"OVER HTTP"` {
		t.Errorf("invoke over HTTP: got %s", body)
	}
}

func TestInitErrorAndTimeout(t *testing.T) {
	e, err := Start(time.Second)
	if err != nil {
		t.Fatal(err)
	}
	defer e.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if _, err := e.Invoke(ctx, []byte(`{}`)); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("no function: got %v, want the context's deadline", err)
	}
	body, _ := json.Marshal(FunctionError{Type: "Runtime.ExitError", Message: "no bundle"})
	http.Post("http://"+e.Addr()+"/2018-06-01/runtime/init/error", "application/json", bytes.NewReader(body))
	var fe *FunctionError
	if _, err := e.Invoke(context.Background(), []byte(`{}`)); !errors.As(err, &fe) || fe.Message != "no bundle" {
		t.Errorf("after init/error: got %v", err)
	}
}
