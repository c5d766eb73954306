package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpsearch/mcpsearch/index"
)

// These tests start the function as main does, from the process
// environment, and watch what it does: whether it serves (the "serving
// MCP" line locally, a poll of the runtime API in Lambda), what it logs
// and what it tells the runtime API.

// syncBuffer is a log destination that tests read while the function runs.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// started is what a start attempt came to.
type started struct {
	err     error  // what run returned, if it returned
	serving bool   // it served: locally the "serving MCP" line, in Lambda a poll for an invocation
	logs    string // everything it logged
	initErr string // the errorMessage it sent to the runtime API's init/error, if any
}

// startWith runs the function with env (every other variable it reads
// unset, so that the developer's own environment cannot change what a test
// sees) until it returns or serves. In Lambda (env names
// AWS_LAMBDA_RUNTIME_API as "fake"), a fake runtime API stands in.
func startWith(t *testing.T, env map[string]string) started {
	t.Helper()
	for _, name := range configVariables() {
		t.Setenv(name, "")
		os.Unsetenv(name)
	}
	var rt *fakeRuntime
	for k, v := range env {
		if k == "AWS_LAMBDA_RUNTIME_API" && v == "fake" {
			rt = startFakeRuntime(t)
			v = rt.addr()
		}
		t.Setenv(k, v)
	}
	logs := &syncBuffer{}
	done := make(chan error, 1)
	go func() { done <- run(os.LookupEnv, logs, nil) }()
	var s started
	deadline := time.After(30 * time.Second)
	for wait := true; wait; {
		select {
		case s.err = <-done:
			wait = false
		case <-time.After(20 * time.Millisecond):
			s.serving = strings.Contains(logs.String(), `"msg":"serving MCP"`) || rt != nil && rt.wasPolled()
			wait = !s.serving
		case <-deadline:
			t.Fatal("the function neither returned nor served within 30s")
		}
	}
	s.logs = logs.String()
	if rt != nil {
		s.initErr = rt.initError()
		if !s.serving {
			rt.srv.Close()
		} // a function that serves holds a poll open: the fake stays up for it
	}
	return s
}

// fakeRuntime is the part of the Lambda runtime API a start uses: it
// records init/error, and holds a poll for the next invocation open.
type fakeRuntime struct {
	srv    *httptest.Server
	mu     sync.Mutex
	polled bool
	init   string
}

func startFakeRuntime(t *testing.T) *fakeRuntime {
	rt := &fakeRuntime{}
	mux := http.NewServeMux()
	mux.HandleFunc("POST /2018-06-01/runtime/init/error", func(w http.ResponseWriter, r *http.Request) {
		var report struct{ ErrorType, ErrorMessage string }
		if err := json.NewDecoder(r.Body).Decode(&report); err != nil || report.ErrorType != "Runtime.InitError" {
			report.ErrorMessage = fmt.Sprintf("a report that is not a Runtime.InitError (%v): %+v", err, report)
		}
		rt.mu.Lock()
		rt.init = report.ErrorMessage
		rt.mu.Unlock()
		w.WriteHeader(http.StatusAccepted)
	})
	mux.HandleFunc("GET /2018-06-01/runtime/invocation/next", func(w http.ResponseWriter, r *http.Request) {
		rt.mu.Lock()
		rt.polled = true
		rt.mu.Unlock()
		select {} // no invocation ever comes
	})
	rt.srv = httptest.NewServer(mux)
	return rt
}

func (rt *fakeRuntime) addr() string { return strings.TrimPrefix(rt.srv.URL, "http://") }

func (rt *fakeRuntime) wasPolled() bool {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.polled
}

func (rt *fakeRuntime) initError() string {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.init
}

// testBundle builds testCatalog into a bundle and returns its directory.
func testBundle(t *testing.T) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "bundle")
	if _, err := index.BuildDir(writeTestCatalog(t), dir, nil); err != nil {
		t.Fatal(err)
	}
	return dir
}

// wantRefused fails unless the start s stopped before serving, with an
// error (locally) or an init error (in Lambda) containing each of want.
func wantRefused(t *testing.T, s started, inLambda bool, want ...string) {
	t.Helper()
	if s.serving {
		t.Fatalf("the function started serving; logs:\n%s", s.logs)
	}
	if s.err == nil {
		t.Fatalf("run returned no error; logs:\n%s", s.logs)
	}
	got := s.err.Error()
	if inLambda {
		got = s.initErr
		if got == "" {
			t.Fatalf("no init error reached the runtime API (run returned %v): the invocation would hang", s.err)
		}
	}
	for _, w := range want {
		if !strings.Contains(got, w) {
			t.Errorf("got %q, want it to contain %q", got, w)
		}
	}
}

// TestStartRefusesBlankOrPaddedAuth: MCPSEARCH_AUTH is read as it is
// written: white space around a mode, a blank value or an unknown mode
// stop the start, locally on any address and in Lambda with an init
// error; a blank value in Lambda is the "not set" error.
func TestStartRefusesBlankOrPaddedAuth(t *testing.T) {
	bundle := testBundle(t)
	for _, value := range []string{" ", "\t", " none", "none ", "\tnone", "none\n", "bogus", "None", " bearer"} {
		for _, where := range []struct {
			name string
			env  map[string]string
		}{
			{"open address", map[string]string{"MCPSEARCH_ADDR": "0.0.0.0:0"}},
			{"loopback", map[string]string{"MCPSEARCH_ADDR": "127.0.0.1:0"}},
			{"Lambda", map[string]string{"AWS_LAMBDA_RUNTIME_API": "fake"}},
		} {
			t.Run(where.name+" "+strings.ReplaceAll(value, "\n", `\n`), func(t *testing.T) {
				env := map[string]string{"MCPSEARCH_INDEX": bundle, "MCPSEARCH_AUTH": value}
				maps.Copy(env, where.env)
				want := []string{"MCPSEARCH_AUTH"}
				if strings.TrimSpace(value) == "" {
					want = []string{"MCPSEARCH_AUTH is not set"}
				}
				wantRefused(t, startWith(t, env), where.name == "Lambda", want...)
			})
		}
	}
}

// malformedSettings holds, for every variable the function reads, values
// it must refuse, each with the rest of the environment it needs (an
// auth mode that reads it).
var malformedSettings = []struct {
	name, value string
	env         map[string]string
}{
	{"MCPSEARCH_INDEX", " /var/task/index", nil},
	{"MCPSEARCH_CATALOG", "catalog ", nil},
	{"MCPSEARCH_CACHE_DIR", " ", nil},
	{"MCPSEARCH_ADDR", "127.0.0.1", nil},
	{"MCPSEARCH_ADDR", "127.0.0.1:http", nil},
	{"MCPSEARCH_ADDR", "127.0.0.1:70000", nil},
	{"MCPSEARCH_PAGE_SIZE", "0", nil},
	{"MCPSEARCH_PAGE_SIZE", "1001", nil},
	{"MCPSEARCH_PAGE_SIZE", " 10", nil},
	{"MCPSEARCH_CURSOR_KEY", "zz", nil},
	{"MCPSEARCH_CURSOR_KEY", "00ff", nil},
	{"MCPSEARCH_LOG_LEVEL", "verbose", nil},
	{"MCPSEARCH_LOG_LEVEL", "INFO", nil},
	{"MCPSEARCH_LOG_LEVEL", "info ", nil},
	{"MCPSEARCH_PLAYGROUND", "yes", nil},
	{"MCPSEARCH_PLAYGROUND", "On", nil},
	{"MCPSEARCH_UPSTREAM_TIMEOUT", "30", nil},
	{"MCPSEARCH_UPSTREAM_TIMEOUT", "0s", nil},
	{"MCPSEARCH_LIST_MODE", "Meta", nil},
	{"MCPSEARCH_LIST_MODE", "meta ", nil},
	{"MCPSEARCH_ALWAYS_TOOLS", "demo__browser_click,", nil},
	{"MCPSEARCH_RULES_OFF", "errand-modle", nil},
	{"MCPSEARCH_RULES_OFF", "errand-model,", nil},
	{"MCPSEARCH_META_THRESHOLD_CHARS", "0", nil},
	{"MCPSEARCH_META_THRESHOLD_CHARS", "50k", nil},
	{"MCPSEARCH_META_THRESHOLD_TOKENS", "10%", nil},
	{"MCPSEARCH_META_THRESHOLD_TOKENS", "101%of180000", nil},
	{"MCPSEARCH_CHARS_PER_TOKEN", "2,5", map[string]string{"MCPSEARCH_META_THRESHOLD_TOKENS": "18000"}},
	{"MCPSEARCH_DIRECTORY_CHARS", "-1", nil},
	{"MCPSEARCH_DIRECTORY_CHARS", "100001", nil},
	{"MCPSEARCH_SECRETS_ARN", "arn:aws:s3:::bucket", nil},
	{"MCPSEARCH_BEARER_SHA256", "abcd", map[string]string{"MCPSEARCH_AUTH": "bearer"}},
	{"MCPSEARCH_BEARER_SHA256", "abcd", map[string]string{"MCPSEARCH_AUTH": "none"}},
	{"MCPSEARCH_JWT_ISSUER", "https://idp.example.com/ ", jwtEnv},
	{"MCPSEARCH_JWT_AUDIENCE", " mcpsearch", jwtEnv},
	{"MCPSEARCH_JWT_JWKS_FILE", "/nonexistent/jwks.json", jwtEnvWithout("MCPSEARCH_JWT_HS256_SECRET")},
	{"MCPSEARCH_JWT_KEY_FILE", "/nonexistent/key.pem", jwtEnvWithout("MCPSEARCH_JWT_HS256_SECRET")},
	{"MCPSEARCH_JWT_HS256_SECRET", "too short", jwtEnv},
	{"MCPSEARCH_JWT_GROUPS_CLAIM", " groups", jwtEnv},
	{"MCPSEARCH_PUBLIC_URL", "http://search.example.com/mcp", jwtEnv},
}

// jwtEnv is a working jwt configuration.
var jwtEnv = map[string]string{"MCPSEARCH_AUTH": "jwt", "MCPSEARCH_JWT_ISSUER": "https://idp.example.com/",
	"MCPSEARCH_JWT_AUDIENCE": "mcpsearch", "MCPSEARCH_JWT_HS256_SECRET": "0123456789abcdef0123456789abcdef"}

func jwtEnvWithout(name string) map[string]string {
	env := maps.Clone(jwtEnv)
	delete(env, name)
	return env
}

// TestStartRefusesMalformedSetting: a malformed value of any variable
// stops the start, naming the variable and what it accepts: locally with
// an error before serving, in Lambda with an init error.
func TestStartRefusesMalformedSetting(t *testing.T) {
	bundle := testBundle(t)
	for _, test := range malformedSettings {
		for _, inLambda := range []bool{false, true} {
			name := test.name + "=" + test.value
			if inLambda {
				name = "Lambda " + name
			}
			t.Run(name, func(t *testing.T) {
				env := map[string]string{"MCPSEARCH_INDEX": bundle, "MCPSEARCH_ADDR": "127.0.0.1:0", "MCPSEARCH_AUTH": "none"}
				if inLambda {
					env["AWS_LAMBDA_RUNTIME_API"] = "fake"
				}
				maps.Copy(env, test.env)
				env[test.name] = test.value
				wantRefused(t, startWith(t, env), inLambda, test.name, "want ")
			})
		}
	}
}

// TestLambdaInitErrorForLambdaSettings: in Lambda, the variables Lambda
// sets are checked too.
func TestLambdaInitErrorForLambdaSettings(t *testing.T) {
	env := map[string]string{"AWS_LAMBDA_RUNTIME_API": "fake", "MCPSEARCH_AUTH": "none", "LAMBDA_TASK_ROOT": "var/task"}
	wantRefused(t, startWith(t, env), true, "LAMBDA_TASK_ROOT", "want ")
}

// TestLambdaConfigErrorAfterIndexOpen: a setting that can only be checked
// against the index (an always-listed tool the catalog does not have) is
// reported to the runtime API as an init error, like the others.
func TestLambdaConfigErrorAfterIndexOpen(t *testing.T) {
	env := map[string]string{"AWS_LAMBDA_RUNTIME_API": "fake", "MCPSEARCH_AUTH": "none", "MCPSEARCH_INDEX": testBundle(t),
		"MCPSEARCH_LIST_MODE": "meta", "MCPSEARCH_ALWAYS_TOOLS": "demo__browser_click,nobody__nothing"}
	wantRefused(t, startWith(t, env), true, "MCPSEARCH_ALWAYS_TOOLS", `"nobody__nothing" is not in the catalog`)
}

// TestServingLoggedAfterBind: on a port already in use the server says
// so, and never logs that it is serving.
func TestServingLoggedAfterBind(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	s := startWith(t, map[string]string{"MCPSEARCH_INDEX": testBundle(t), "MCPSEARCH_ADDR": busy.Addr().String()})
	if strings.Contains(s.logs, "serving MCP") {
		t.Errorf("the server logged that it serves on a port it could not bind:\n%s", s.logs)
	}
	if s.serving || s.err == nil || !strings.Contains(s.err.Error(), "address already in use") || !strings.Contains(s.err.Error(), busy.Addr().String()) {
		t.Errorf("got %v, want an error naming %s and \"address already in use\"", s.err, busy.Addr())
	}
}
