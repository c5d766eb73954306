package requests

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/mcpsearch/mcpsearch/ext/embed/embedtest"
)

// testCreds are the credentials the scripted Bedrock endpoint checks
// signatures with.
var testCreds = aws.Credentials{AccessKeyID: "AKIDEXAMPLE", SecretAccessKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY", SessionToken: "session-token"}

// staticCreds gives testCreds.
var staticCreds = aws.CredentialsProviderFunc(func(context.Context) (aws.Credentials, error) { return testCreds, nil })

// converseCall is what a scripted Bedrock endpoint received.
type converseCall struct {
	System   []struct{ Text string } `json:"system"`
	Messages []struct {
		Role    string                  `json:"role"`
		Content []struct{ Text string } `json:"content"`
	} `json:"messages"`
	path string // as sent, escaped
}

// converseOutput is a Converse answer whose text is text.
func converseOutput(text string) string {
	body, _ := json.Marshal(map[string]any{
		"output":     map[string]any{"message": map[string]any{"role": "assistant", "content": []map[string]string{{"text": text}}}},
		"stopReason": "end_turn", "usage": map[string]int{"inputTokens": 10, "outputTokens": 20},
	})
	return string(body)
}

// scriptedBedrock is a Bedrock runtime endpoint on 127.0.0.1 that takes
// only calls signed for service bedrock in region with creds, and answers
// them with answer(the call).
func scriptedBedrock(t *testing.T, region string, creds aws.Credentials, answer func(c converseCall) (int, string)) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if err := embedtest.CheckSignature(r, body, region, creds); err != "" {
			w.Header().Set("X-Amzn-Errortype", "InvalidSignatureException")
			http.Error(w, `{"message":"`+err+`"}`, http.StatusForbidden)
			return
		}
		var c converseCall
		if err := json.Unmarshal(body, &c); err != nil {
			http.Error(w, `{"message":"not JSON"}`, http.StatusBadRequest)
			return
		}
		c.path = r.URL.EscapedPath()
		status, out := answer(c)
		w.WriteHeader(status)
		io.WriteString(w, out)
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// TestBedrockConverse: the call goes to /model/ID/converse (the ID's ":"
// escaped as the SDKs do), signed with SigV4 for service bedrock in the
// region, with the instruction as system and the item as the user's
// message, and the text of output.message.content is the answer.
func TestBedrockConverse(t *testing.T) {
	var got converseCall
	endpoint := scriptedBedrock(t, "eu-west-1", testCreds, func(c converseCall) (int, string) {
		got = c
		return http.StatusOK, converseOutput(`["a", "b"]`)
	})
	m := &Bedrock{Region: "eu-west-1", Model: "anthropic.claude-3-haiku-20240307-v1:0", Endpoint: endpoint,
		Credentials: staticCreds, Calls: fast}
	text, err := m.Complete(context.Background(), "the rules", "the item")
	if err != nil || text != `["a", "b"]` {
		t.Fatalf("got %q, %v; want the message's text", text, err)
	}
	if got.path != "/model/anthropic.claude-3-haiku-20240307-v1%3A0/converse" {
		t.Errorf("path %s, want /model/anthropic.claude-3-haiku-20240307-v1%%3A0/converse", got.path)
	}
	if len(got.System) != 1 || got.System[0].Text != "the rules" || len(got.Messages) != 1 || got.Messages[0].Role != "user" ||
		len(got.Messages[0].Content) != 1 || got.Messages[0].Content[0].Text != "the item" {
		t.Errorf("got call %+v; want the rules as system, the item as the user's message", got)
	}
	other := &Bedrock{Region: "us-east-1", Model: "m", Endpoint: endpoint, Credentials: staticCreds, Calls: fast}
	if _, err := other.Complete(context.Background(), "s", "u"); err == nil || !strings.Contains(err.Error(), "HTTP 403") || !strings.Contains(err.Error(), "scope") {
		t.Errorf("signed for another region: got %v, want the endpoint's 403", err)
	}
}

// TestBedrockAnswers: answers that are not a Converse answer, or were cut,
// are errors that say so.
func TestBedrockAnswers(t *testing.T) {
	for _, test := range []struct{ name, body, want string }{
		{"no text", `{"output":{"message":{"content":[{"image":{}}]}},"stopReason":"end_turn"}`, "no output.message.content[].text"},
		{"cut", `{"output":{"message":{"content":[{"text":"[\"a"}]}},"stopReason":"max_tokens"}`, "token limit"},
		{"not JSON", `<html>`, "not a Converse answer"},
	} {
		endpoint := scriptedBedrock(t, "eu-west-1", testCreds, func(converseCall) (int, string) { return http.StatusOK, test.body })
		m := &Bedrock{Region: "eu-west-1", Model: "m", Endpoint: endpoint, Credentials: staticCreds, Calls: fast}
		if _, err := m.Complete(context.Background(), "s", "u"); err == nil || !strings.Contains(err.Error(), test.want) {
			t.Errorf("%s: got %v, want an error saying %q", test.name, err, test.want)
		}
	}
}
