package requests

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"regexp"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// itemLine finds the item a prompt asks about.
var itemLine = regexp.MustCompile(`(?m)^Item: (?:tool|prompt|resource template|resource) (\S+)$`)

// scriptedRequests are what a scripted model writes for an item: valid,
// distinct, one of them in Spanish.
func scriptedRequests(item string) []string {
	return []string{
		"use " + item + " now",
		"I would like the thing " + item + " does, please",
		"hey, quick one before the standup: can you sort out " + item + " for the Lisbon team?",
		"is there a way to do " + item + "?",
		"¿puedes hacer " + item + " por mí?",
		"bitte " + item + " ausführen",
	}
}

// chatCompletion is an OpenAI chat completion whose text is content.
func chatCompletion(content string) string {
	body, _ := json.Marshal(map[string]any{"choices": []map[string]any{{"message": map[string]any{"role": "assistant", "content": content}, "finish_reason": "stop"}}})
	return string(body)
}

// openAICall is what a scripted OpenAI endpoint received.
type openAICall struct {
	Model    string `json:"model"`
	Messages []struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	} `json:"messages"`
	auth string
}

// item is the item the call asks about.
func (c openAICall) item() string {
	if len(c.Messages) != 2 {
		return ""
	}
	m := itemLine.FindStringSubmatch(c.Messages[1].Content)
	if m == nil {
		return ""
	}
	return m[1]
}

// scriptedOpenAI is an OpenAI-compatible endpoint on 127.0.0.1 that
// answers each call with answer(the call, how many came before it); it
// refuses a call to another path than /v1/chat/completions.
func scriptedOpenAI(t *testing.T, answer func(c openAICall, n int) (status int, body string)) (endpoint string, calls *atomic.Int32) {
	t.Helper()
	calls = &atomic.Int32{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/v1/chat/completions" || r.Method != http.MethodPost {
			http.Error(w, "not here: "+r.Method+" "+r.URL.Path, http.StatusNotFound)
			return
		}
		var c openAICall
		if err := json.NewDecoder(r.Body).Decode(&c); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		c.auth = r.Header.Get("Authorization")
		status, body := answer(c, int(calls.Add(1))-1)
		w.Header().Set("Content-Type", "application/json")
		if status == http.StatusTooManyRequests && retryAfterHeader != "" {
			w.Header().Set("Retry-After", retryAfterHeader)
		}
		w.WriteHeader(status)
		io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/v1", calls
}

// retryAfterHeader is the Retry-After the scripted endpoints send with a
// 429 (none when empty).
var retryAfterHeader string

// answerRequests answers every call with the scripted requests of its
// item, as a JSON array.
func answerRequests(c openAICall, _ int) (int, string) {
	list, _ := json.Marshal(scriptedRequests(c.item()))
	return http.StatusOK, chatCompletion(string(list))
}

// fast are calls that retry at once and time out soon.
var fast = &Calls{Timeout: 2 * time.Second, Retries: 2, Backoff: time.Millisecond}

// TestOpenAIComplete: the call names the model, sends the instruction and
// the message as system and user, the key as a bearer token, and reads
// the first choice's text.
func TestOpenAIComplete(t *testing.T) {
	var got openAICall
	endpoint, _ := scriptedOpenAI(t, func(c openAICall, _ int) (int, string) {
		got = c
		return http.StatusOK, chatCompletion(`["a"]`)
	})
	m := &OpenAI{Endpoint: endpoint, Model: "qwen3-32b", APIKey: "sk-test", Calls: fast}
	text, err := m.Complete(context.Background(), "the rules", "the item")
	if err != nil || text != `["a"]` {
		t.Fatalf("got %q, %v; want the choice's text", text, err)
	}
	if got.Model != "qwen3-32b" || len(got.Messages) != 2 || got.Messages[0].Role != "system" || got.Messages[0].Content != "the rules" ||
		got.Messages[1].Role != "user" || got.Messages[1].Content != "the item" {
		t.Errorf("got call %+v; want the model, then the rules as system and the item as user", got)
	}
	if got.auth != "Bearer sk-test" {
		t.Errorf("Authorization %q, want Bearer sk-test", got.auth)
	}
	for _, test := range []struct{ name, body, want string }{
		{"no choices", `{"choices":[]}`, "no choices[0].message.content"},
		{"cut", `{"choices":[{"message":{"content":"[\"a"},"finish_reason":"length"}]}`, "token limit"},
		{"not JSON", `<html>`, "not a chat completion"},
	} {
		endpoint, _ := scriptedOpenAI(t, func(openAICall, int) (int, string) { return http.StatusOK, test.body })
		m := &OpenAI{Endpoint: endpoint, Model: "m", Calls: fast}
		if _, err := m.Complete(context.Background(), "s", "u"); err == nil || !strings.Contains(err.Error(), test.want) {
			t.Errorf("%s: got %v, want an error saying %q", test.name, err, test.want)
		}
	}
}

// TestRetries: a 429 or a 5xx is tried again after a backoff, up to
// Retries times; a 4xx other than 429 is not; the error says the status,
// the endpoint's words and how many tries were made.
func TestRetries(t *testing.T) {
	for _, test := range []struct {
		name      string
		statuses  []int // the answers, the last one repeated
		wantCalls int32
		wantErr   string // "" for success
	}{
		{"429 then success", []int{429, 200}, 2, ""},
		{"503, 502 then success", []int{503, 502, 200}, 3, ""},
		{"500 forever", []int{500}, 3, "HTTP 500: overloaded (after 3 tries)"},
		{"400", []int{400, 200}, 1, "HTTP 400: overloaded"},
	} {
		t.Run(test.name, func(t *testing.T) {
			endpoint, calls := scriptedOpenAI(t, func(_ openAICall, n int) (int, string) {
				status := test.statuses[min(n, len(test.statuses)-1)]
				if status != http.StatusOK {
					return status, "overloaded"
				}
				return status, chatCompletion("fine")
			})
			m := &OpenAI{Endpoint: endpoint, Model: "m", Calls: fast}
			text, err := m.Complete(context.Background(), "s", "u")
			if calls.Load() != test.wantCalls {
				t.Errorf("%d calls, want %d", calls.Load(), test.wantCalls)
			}
			switch {
			case test.wantErr == "" && (err != nil || text != "fine"):
				t.Errorf("got %q, %v; want the answer after the retries", text, err)
			case test.wantErr != "" && (err == nil || !strings.Contains(err.Error(), test.wantErr)):
				t.Errorf("got %v, want an error saying %q", err, test.wantErr)
			}
		})
	}
}

// TestRetryAfter: the wait a 429 asks for (Retry-After, in seconds) is
// honoured: the retry comes no sooner than half of it (the jitter's
// least).
func TestRetryAfter(t *testing.T) {
	var first time.Time
	var gap time.Duration
	endpoint, _ := scriptedOpenAI(t, func(_ openAICall, n int) (int, string) {
		if n == 0 {
			first = time.Now()
			return http.StatusTooManyRequests, "slow down"
		}
		gap = time.Since(first)
		return http.StatusOK, chatCompletion("fine")
	})
	m := &OpenAI{Endpoint: endpoint, Model: "m", Calls: fast}
	retryAfterHeader = "1"
	defer func() { retryAfterHeader = "" }()
	if _, err := m.Complete(context.Background(), "s", "u"); err != nil || gap < 500*time.Millisecond {
		t.Errorf("got %v after %s; want the answer after the second asked", err, gap)
	}
}

// TestTimeout: a model that does not answer within Timeout fails the call
// saying so, once, without retrying a slow model.
func TestTimeout(t *testing.T) {
	release := make(chan struct{})
	var calls atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		select {
		case <-release:
		case <-r.Context().Done():
		}
	}))
	defer srv.Close()
	defer close(release)
	m := &OpenAI{Endpoint: srv.URL, Model: "m", Calls: &Calls{Timeout: 100 * time.Millisecond, Retries: 2, Backoff: time.Millisecond}}
	start := time.Now()
	_, err := m.Complete(context.Background(), "s", "u")
	if err == nil || !strings.Contains(err.Error(), "no answer within 100ms") {
		t.Fatalf("got %v, want no answer within 100ms", err)
	}
	if calls.Load() != 1 || time.Since(start) > 5*time.Second {
		t.Errorf("%d calls in %s; want one, given up at the timeout", calls.Load(), time.Since(start))
	}
}

// TestAnswerBound: an answer over MaxAnswerBytes is refused, not read
// whole.
func TestAnswerBound(t *testing.T) {
	endpoint, _ := scriptedOpenAI(t, func(openAICall, int) (int, string) {
		return http.StatusOK, chatCompletion(strings.Repeat("x", 5000))
	})
	m := &OpenAI{Endpoint: endpoint, Model: "m", Calls: &Calls{MaxAnswerBytes: 1000}}
	if _, err := m.Complete(context.Background(), "s", "u"); err == nil || !strings.Contains(err.Error(), "over 1000 bytes") {
		t.Errorf("got %v, want the answer refused as over 1000 bytes", err)
	}
}

// TestKeyNeverShown: an endpoint that quotes the key back in its refusal
// gets it out of the error, as do the model's name and its endpoint's
// password.
func TestKeyNeverShown(t *testing.T) {
	const key = "sk-live-0123456789abcdef"
	endpoint, _ := scriptedOpenAI(t, func(c openAICall, _ int) (int, string) {
		return http.StatusUnauthorized, fmt.Sprintf(`{"error": "Incorrect API key provided: %s"}`, strings.TrimPrefix(c.auth, "Bearer "))
	})
	endpoint = strings.Replace(endpoint, "http://", "http://user:hunter2@", 1)
	m := &OpenAI{Endpoint: endpoint, Model: "m", APIKey: key, Calls: fast}
	_, err := m.Complete(context.Background(), "s", "u")
	if err == nil || !strings.Contains(err.Error(), "HTTP 401") || !strings.Contains(err.Error(), "[redacted]") {
		t.Fatalf("got %v, want the 401 with the key taken out", err)
	}
	for _, shown := range []string{err.Error(), m.String()} {
		if strings.Contains(shown, key) || strings.Contains(shown, "hunter2") {
			t.Errorf("%q shows a secret", shown)
		}
	}
}
