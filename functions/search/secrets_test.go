package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"reflect"
	"strings"
	"testing"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/mcpsearch/mcpsearch/ext/redirect/redirecttest"
)

const testSecretARN = "arn:aws:secretsmanager:eu-west-1:123456789012:secret:mcpsearch/upstreams-AbCdEf"

// fakeSecretsManager answers GetSecretValue of testSecretARN with secret,
// checking the request is the signed JSON 1.1 call Secrets Manager takes.
func fakeSecretsManager(t *testing.T, secret string) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var body struct{ SecretId string }
		json.NewDecoder(r.Body).Decode(&body)
		auth := r.Header.Get("Authorization")
		switch {
		case r.Method != http.MethodPost || r.Header.Get("X-Amz-Target") != "secretsmanager.GetSecretValue" ||
			r.Header.Get("Content-Type") != "application/x-amz-json-1.1":
			t.Errorf("got %s %s %v, want a GetSecretValue call", r.Method, r.URL, r.Header)
		case !strings.HasPrefix(auth, "AWS4-HMAC-SHA256 Credential=AKIDTEST/") || !strings.Contains(auth, "/eu-west-1/secretsmanager/aws4_request") ||
			r.Header.Get("X-Amz-Security-Token") != "session-token":
			t.Errorf("request not signed for eu-west-1 secretsmanager with the session token: %q", auth)
		}
		if body.SecretId != testSecretARN {
			w.WriteHeader(http.StatusBadRequest)
			w.Write([]byte(`{"__type":"ResourceNotFoundException","message":"Secrets Manager can't find the specified secret."}`))
			return
		}
		out, _ := json.Marshal(map[string]any{"ARN": testSecretARN, "SecretString": secret})
		w.Write(out)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func testSource(endpoint string) secretsSource {
	return secretsSource{endpoint: endpoint, client: http.DefaultClient,
		creds: aws.Credentials{AccessKeyID: "AKIDTEST", SecretAccessKey: "secret-key", SessionToken: "session-token"}}
}

// TestLoadSecrets: the secret's entries become environment variables,
// except those already set.
func TestLoadSecrets(t *testing.T) {
	srv := fakeSecretsManager(t, `{"MCPSEARCH_TEST_SECRET_A":"alpha","MCPSEARCH_TEST_SECRET_B":"beta"}`)
	t.Setenv("MCPSEARCH_TEST_SECRET_A", "")
	os.Unsetenv("MCPSEARCH_TEST_SECRET_A")
	t.Setenv("MCPSEARCH_TEST_SECRET_B", "set by the operator")
	set, err := loadSecrets(context.Background(), testSecretARN, testSource(srv.URL))
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(set, []string{"MCPSEARCH_TEST_SECRET_A"}) {
		t.Errorf("set %v, want only MCPSEARCH_TEST_SECRET_A", set)
	}
	if got := os.Getenv("MCPSEARCH_TEST_SECRET_A"); got != "alpha" {
		t.Errorf("MCPSEARCH_TEST_SECRET_A = %q, want alpha", got)
	}
	if got := os.Getenv("MCPSEARCH_TEST_SECRET_B"); got != "set by the operator" {
		t.Errorf("MCPSEARCH_TEST_SECRET_B = %q, want the operator's value kept", got)
	}
}

func TestLoadSecretsErrors(t *testing.T) {
	srv := fakeSecretsManager(t, `["not", "an", "object"]`)
	for _, test := range []struct{ arn, want string }{
		{testSecretARN, "not a JSON object of strings"},
		{strings.Replace(testSecretARN, "upstreams", "missing", 1), "ResourceNotFoundException"},
		{"arn:aws:s3:::bucket", "is not a Secrets Manager secret ARN"},
	} {
		_, err := loadSecrets(context.Background(), test.arn, testSource(srv.URL))
		if err == nil || !strings.Contains(err.Error(), test.want) || !strings.Contains(err.Error(), "MCPSEARCH_SECRETS_ARN") {
			t.Errorf("%s: got %v, want an error naming MCPSEARCH_SECRETS_ARN and containing %q", test.arn, err, test.want)
		}
	}
}

// TestSecretsRedirectRefused: a Secrets Manager endpoint answering 301,
// 302, 303, 307 or 308 towards another port, host or scheme is not
// followed: the error says so (without the Location), and the server
// there never sees the signed request or its session token.
func TestSecretsRedirectRefused(t *testing.T) {
	for _, status := range redirecttest.Statuses {
		for _, there := range redirecttest.Elsewhere(t, nil, "/") {
			origin := redirecttest.Origin(t, status, there)
			src := testSource(origin.URL)
			src.client = origin.Client()
			_, err := loadSecrets(context.Background(), testSecretARN, src)
			if want := fmt.Sprintf("HTTP %d redirects to %s", status, there.Why); err == nil || !strings.Contains(err.Error(), want) || strings.Contains(err.Error(), there.URL) {
				t.Errorf("%d %s: got %v, want an error saying %s without the Location", status, there.Why, err, want)
			}
			for _, r := range there.Seen() {
				t.Errorf("%d %s: received %s with X-Amz-Security-Token %q", status, there.Why, r.Method, r.Header.Get("X-Amz-Security-Token"))
			}
		}
	}
}

// TestRunRefusesBadSecret: a secret that cannot be loaded stops the
// server before it serves.
func TestRunRefusesBadSecret(t *testing.T) {
	wantRefused(t, startWith(t, map[string]string{"MCPSEARCH_SECRETS_ARN": "arn:aws:s3:::not-a-secret"}), false, "MCPSEARCH_SECRETS_ARN")
}
