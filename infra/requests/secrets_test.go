package requests

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/mcpsearch/mcpsearch/ext/redact/redacttest"
	"github.com/mcpsearch/mcpsearch/ext/redirect/redirecttest"
)

// liveKey is the API key of the secrets tests.
const liveKey = "sk-live-0123456789abcdef"

// sessionCreds are temporary credentials, whose session token travels
// with every Bedrock call.
var sessionCreds = aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) {
	return aws.Credentials{AccessKeyID: "ASIAEXAMPLE", SecretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", SessionToken: "IQoJb3JpZ2luX2VjEHoaCXVzLWVhc3QtMSJHMEUCIQ"}, nil
})

// TestModelRedirectsRefused: a model endpoint answering 301, 302, 303,
// 307 or 308 towards another port, another host or another scheme fails
// the call, saying so; the server there receives nothing — neither the
// key, nor the session token, nor the prompt.
func TestModelRedirectsRefused(t *testing.T) {
	for _, status := range redirecttest.Statuses {
		for _, there := range redirecttest.Elsewhere(t, nil, "/v1/chat/completions") {
			t.Run(fmt.Sprintf("%d %s", status, there.Why), func(t *testing.T) {
				origin := redirecttest.Origin(t, status, there)
				calls := &Calls{Timeout: 5 * time.Second, Client: origin.Client()}
				for _, m := range []Model{
					&OpenAI{Endpoint: origin.URL + "/v1", Model: "m", APIKey: liveKey, Calls: calls},
					&Bedrock{Region: "us-east-1", Model: "m", Endpoint: origin.URL, Credentials: sessionCreds, Calls: calls},
				} {
					_, err := m.Complete(context.Background(), "the instruction", "the item's documentation")
					if want := fmt.Sprintf("HTTP %d redirects to %s", status, there.Why); err == nil || !strings.Contains(err.Error(), want) {
						t.Errorf("%s: got %v, want an error saying %s", m, err, want)
					}
				}
				for _, r := range there.Seen() {
					t.Errorf("%s received %s %s: Authorization %q, X-Amz-Security-Token %q, body %.60q", there.Why, r.Method, r.Path,
						r.Header.Get("Authorization"), r.Header.Get("X-Amz-Security-Token"), r.Body)
				}
			})
		}
	}
}

// TestEchoedKeyNeverShown: an endpoint that refuses a call quoting its
// key (or, to Bedrock, its session token) upper-cased, spaced out,
// truncated or rewritten by one or two of reversal, hex, base64, %XX, \u
// and \x escapes and URL escaping gets no piece of it into the error the
// draft command prints (nor, with no key, of the password of the
// endpoint's URL, which goes as Basic credentials); one that writes the
// key in a completion gets no piece of it into the text either.
func TestEchoedKeyNeverShown(t *testing.T) {
	forms := func(secret string) map[string]string {
		out := redacttest.Composed(secret)
		for how, f := range redacttest.Plain(secret) {
			out[how] = f
		}
		return out
	}
	for how, form := range forms(liveKey) {
		for status, body := range map[int]string{http.StatusUnauthorized: `{"error":"Incorrect API key provided: ` + form + `"}`, http.StatusOK: chatCompletion("your key is " + form)} {
			endpoint, _ := scriptedOpenAI(t, func(openAICall, int) (int, string) { return status, body })
			m := &OpenAI{Endpoint: endpoint, Model: "m", APIKey: liveKey, Calls: fast}
			text, err := m.Complete(context.Background(), "s", "u")
			if status != http.StatusOK && (err == nil || !strings.Contains(err.Error(), "HTTP 401")) {
				t.Fatalf("%s: got %v, want the 401", how, err)
			}
			if leaks := redacttest.Leaks(fmt.Sprint(text, err), liveKey); len(leaks) > 0 {
				t.Errorf("OpenAI %d, %s: %q, %v leaks %v", status, how, text, err, leaks)
			}
		}
	}
	// No key, a password in the URL: http.Client sends it as Basic
	// credentials, which the endpoint repeats decoded and re-encoded.
	const password = "correct-horse-battery"
	for how, form := range forms("user:" + password) {
		endpoint, _ := scriptedOpenAI(t, func(openAICall, int) (int, string) { return http.StatusForbidden, "you are " + form })
		m := &OpenAI{Endpoint: strings.Replace(endpoint, "http://", "http://user:"+password+"@", 1), Model: "m", Calls: fast}
		if _, err := m.Complete(context.Background(), "s", "u"); err == nil || len(redacttest.Leaks(err.Error(), password)) > 0 {
			t.Errorf("URL password, %s: %v leaks %v", how, err, redacttest.Leaks(fmt.Sprint(err), password))
		}
	}
	creds, _ := sessionCreds.Retrieve(context.Background())
	for how, form := range forms(creds.SessionToken) {
		endpoint := scriptedBedrock(t, "eu-west-1", creds, func(converseCall) (int, string) {
			return http.StatusTooManyRequests, `{"message":"throttled session ` + form + `"}`
		})
		m := &Bedrock{Region: "eu-west-1", Model: "m", Endpoint: endpoint, Credentials: sessionCreds, Calls: &Calls{Timeout: time.Second}}
		_, err := m.Complete(context.Background(), "s", "u")
		if err == nil || !strings.Contains(err.Error(), "HTTP 429") {
			t.Fatalf("%s: got %v, want the 429", how, err)
		}
		if leaks := redacttest.Leaks(err.Error(), creds.SessionToken); len(leaks) > 0 {
			t.Errorf("Bedrock, %s: %v leaks %v", how, err, leaks)
		}
	}
}

// TestDraftShowsBodiesSafely: what the draft command prints of an
// endpoint's refusal, or of an answer it cannot read, has its control
// characters written as escapes (no escape sequence, carriage return,
// bell or bidirectional override reaches the terminal) and is bounded.
func TestDraftShowsBodiesSafely(t *testing.T) {
	hostile := "\x1b]0;owned\x07\x1b[2J\x1b[31mred\u202e\u009b" + strings.Repeat("\x1b[1m", 5000)
	for name, answer := range map[string]func(openAICall, int) (int, string){
		"refusal":    func(openAICall, int) (int, string) { return http.StatusBadRequest, hostile },
		"completion": func(openAICall, int) (int, string) { return http.StatusOK, chatCompletion("no array here " + hostile) },
	} {
		endpoint, _ := scriptedOpenAI(t, answer)
		_, err := Draft(context.Background(), copyCatalog(t), t.TempDir(), &OpenAI{Endpoint: endpoint, Model: "m", Calls: fast}, &DraftOptions{Concurrency: 1})
		if err == nil || !strings.Contains(err.Error(), `\x1b]0;owned\x07\x1b[2J\x1b[31mred\u202e\u009b\x1b[1m`) {
			t.Fatalf("%s: got %v, want the body with its escapes shown", name, err)
		}
		for _, line := range strings.Split(err.Error(), "\n") {
			if strings.ContainsFunc(line, func(r rune) bool { return unicode.IsControl(r) || unicode.Is(unicode.Cf, r) }) {
				t.Errorf("%s: %q holds a control character", name, line)
			}
			if len(line) > 600 {
				t.Errorf("%s: a line of %d bytes: %.100q…", name, len(line), line)
			}
		}
	}
}
