package main

import (
	"encoding/json"
	"net/http"
	"slices"
	"strings"
	"testing"

	"github.com/aws/aws-lambda-go/events"
)

// TestAuthMode: none is refused on a listener other than loopback and, in
// Lambda, unless chosen explicitly; aws is refused outside Lambda.
func TestAuthMode(t *testing.T) {
	for _, test := range []struct {
		mode, addr string
		inLambda   bool
		want       string // an error containing this, or "" for none
	}{
		{"", "127.0.0.1:8080", false, ""},
		{"none", "localhost:8080", false, ""},
		{"none", "[::1]:8080", false, ""},
		{"", "0.0.0.0:8080", false, "not a loopback address"},
		{"none", ":8080", false, "not a loopback address"},
		{"none", "[::]:8080", false, "not a loopback address"},
		{"none", "192.0.2.10:8080", false, "not a loopback address"},
		{"bearer", "0.0.0.0:8080", false, ""},
		{"jwt", "0.0.0.0:8080", false, ""},
		{"", "", true, "MCPSEARCH_AUTH is not set"},
		{"none", "", true, ""},
		{"aws", "", true, ""},
		{"aws", "127.0.0.1:8080", false, "only in Lambda"},
	} {
		t.Setenv("MCPSEARCH_AUTH", test.mode)
		_, err := authMode(test.inLambda, test.addr)
		if test.want == "" && err != nil || test.want != "" && (err == nil || !strings.Contains(err.Error(), test.want)) {
			t.Errorf("mode %q on %q (Lambda %v): got %v, want %q", test.mode, test.addr, test.inLambda, err, test.want)
		}
	}
}

// TestRunRefusesOpenListener: the server does not start with no
// authentication on an address others can reach.
func TestRunRefusesOpenListener(t *testing.T) {
	t.Setenv("AWS_LAMBDA_RUNTIME_API", "")
	t.Setenv("MCPSEARCH_SECRETS_ARN", "")
	t.Setenv("MCPSEARCH_AUTH", "")
	t.Setenv("MCPSEARCH_ADDR", "0.0.0.0:0")
	if err := run(quiet); err == nil || !strings.Contains(err.Error(), "MCPSEARCH_AUTH=none") {
		t.Errorf("got %v, want none refused on 0.0.0.0", err)
	}
}

// TestAWSModeThroughLambda: in aws mode the identity of a recorded HTTP API
// v2 event (JWT authorizer claims) or Function URL event (IAM) reaches the
// catalog through the Lambda adapter; an event without one gets 401.
func TestAWSModeThroughLambda(t *testing.T) {
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
