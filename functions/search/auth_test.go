package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"
)

// TestRunRefusesOpenListener: the server does not start with no
// authentication on an address others can reach (from the process
// environment, as main starts).
func TestRunRefusesOpenListener(t *testing.T) {
	wantRefused(t, startWith(t, map[string]string{"MCPSEARCH_ADDR": "0.0.0.0:0"}), false, "MCPSEARCH_AUTH=none", "not a loopback address")
}

// TestAWSModeThroughLambda: in aws mode the identity of a recorded HTTP API
// v2 event (JWT authorizer claims) or Function URL event (IAM) reaches the
// catalog through the Lambda adapter; an event without one gets 401.
func TestAWSModeThroughLambda(t *testing.T) {
	t.Parallel()
	idx := mustVisIndex(t)
	h, err := newGatewayHandler(t, idx, map[string]string{"AWS_LAMBDA_RUNTIME_API": "127.0.0.1:9", "MCPSEARCH_AUTH": "aws",
		"MCPSEARCH_JWT_GROUPS_CLAIM": "cognito:groups", "MCPSEARCH_PAGE_SIZE": "1000"})
	if err != nil {
		t.Fatal(err)
	}
	byName := map[string]visTool{}
	for _, tool := range visTools() {
		byName[tool.server+"__"+tool.name] = tool
	}
	bob := visCaller{name: "bob", groups: []string{"blue", "ops"}, scopes: []string{"docs:read"}}
	iam := visCaller{name: "ci", groups: []string{"arn:aws:sts::123456789012:assumed-role/ci/session", "aws-account:123456789012"}}
	for _, test := range []struct {
		event  string
		caller visCaller
	}{
		{"http-api-v2-jwt-authorizer-event.json", bob},
		{"function-url-iam-event.json", iam},
	} {
		resp := invoke(t, h, loadEvent(t, test.event))
		var msg map[string]any
		if err := json.Unmarshal([]byte(resp.Body), &msg); err != nil || resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: got %d %s", test.event, resp.StatusCode, resp.Body)
		}
		var want []string
		for name, tool := range byName {
			if test.caller.sees(tool) {
				want = append(want, name)
			}
		}
		if got := itemNames(wantResult(t, msg)); !slices.Equal(sorted(got), sorted(want)) {
			t.Errorf("%s: tools/list gave %v, want %v", test.event, sorted(got), sorted(want))
		}
	}
	for _, name := range []string{"http-api-v2-event.json", "function-url-event.json"} {
		ev := loadEvent(t, name)
		ev.RequestContext.Authorizer = (*events.APIGatewayV2HTTPRequestContextAuthorizerDescription)(nil)
		resp := invoke(t, h, ev)
		if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(eventHeader(resp, "WWW-Authenticate"), `Bearer resource_metadata="https://`) {
			t.Errorf("%s without an authorizer: got %d %v, want 401 with a Bearer challenge", name, resp.StatusCode, resp.Headers)
		}
	}
}

// TestTwoAuthorizationHeaders: a request with two credentials is refused
// 400 with the reason, whichever is valid: over HTTP (two headers) and
// through the Lambda adapter (where the front end folds them into one
// value with a comma).
func TestTwoAuthorizationHeaders(t *testing.T) {
	t.Parallel()
	sum := sha256.Sum256([]byte("good-token"))
	h, err := newGatewayHandler(t, mustIndex(t), map[string]string{"MCPSEARCH_AUTH": "bearer", "MCPSEARCH_BEARER_SHA256": hex.EncodeToString(sum[:])})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(h)
	defer srv.Close()
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/search","params":{"query":"screenshot"}}`
	post := func(auth ...string) (int, string) {
		req, _ := http.NewRequest(http.MethodPost, srv.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		for _, a := range auth {
			req.Header.Add("Authorization", a)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	if code, got := post("Bearer good-token"); code != http.StatusOK {
		t.Fatalf("one valid token: got %d %s, want 200", code, got)
	}
	for _, auth := range [][]string{{"Bearer good-token", "Bearer other"}, {"Bearer other", "Bearer good-token"}, {"Bearer good-token", "Bearer good-token"}} {
		if code, got := post(auth...); code != http.StatusBadRequest || !strings.Contains(got, "more than one credential") {
			t.Errorf("headers %q over HTTP: got %d %q, want 400 naming more than one credential", auth, code, got)
		}
	}
	ev := loadEvent(t, "function-url-event.json")
	ev.Body, ev.IsBase64Encoded = body, false
	delete(ev.Headers, "content-length")
	ev.Headers["authorization"] = "Bearer good-token,Bearer other"
	if resp := invoke(t, h, ev); resp.StatusCode != http.StatusBadRequest || !strings.Contains(resp.Body, "more than one credential") {
		t.Errorf("folded header through Lambda: got %d %q, want 400 naming more than one credential", resp.StatusCode, resp.Body)
	}
}
