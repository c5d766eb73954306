package main

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

var promptItem = regexp.MustCompile(`(?m)^Item: (?:tool|prompt|resource template|resource) (\S+)$`)

// draftedFor are the requests the scripted models write for an item.
func draftedFor(item string) []string {
	return []string{"do " + item + " for me", "could you help me with " + item + " today?", "mach bitte " + item}
}

// answerFor answers a prompt with the requests of its item, as the text
// of a model's answer in a code fence.
func answerFor(t *testing.T, prompt string) string {
	m := promptItem.FindStringSubmatch(prompt)
	if m == nil {
		t.Errorf("no item in the prompt %q", prompt)
		return "[]"
	}
	list, _ := json.Marshal(draftedFor(m[1]))
	return "```json\n" + string(list) + "\n```"
}

// copyTestCatalog copies the test catalog (servers notes and weather, no
// requests) into a new directory.
func copyTestCatalog(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"notes.json", "weather.json"} {
		data, err := os.ReadFile(filepath.Join(testCatalog, name))
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, filepath.Join(dir, name), string(data))
	}
	return dir
}

// applyDrafts applies the files draft wrote and checks that the catalog
// then loads every item of servers with the scripted requests.
func applyDrafts(t *testing.T, cat, out string, servers ...string) {
	t.Helper()
	var files []string
	for _, s := range servers {
		files = append(files, filepath.Join(out, s+".json"))
	}
	if code, stdout, stderr := runCLI(append([]string{"requests", "apply", "--catalog", cat}, files...)...); code != 0 {
		t.Fatalf("apply: exit %d, %s%s", code, stdout, stderr)
	}
	loaded, err := catalog.LoadDir(cat, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range loaded.Items {
		want := []string(nil)
		if slices.Contains(servers, it.Server) {
			want = draftedFor(it.UpstreamName)
		}
		if !slices.Equal(it.Requests, want) {
			t.Errorf("%s: requests %q, want %q", it.Name, it.Requests, want)
		}
	}
}

// TestRequestsDraftThenApply: requests draft against an OpenAI-compatible
// endpoint sends the model named and the key of the variable named, and
// writes files that requests apply takes; the catalog then loads the
// requests. The key is never printed.
func TestRequestsDraftThenApply(t *testing.T) {
	const key = "sk-draft-test-1234"
	t.Setenv("MCPSEARCH_TEST_LLM_KEY", key)
	var mu sync.Mutex
	var models, auths []string
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var call struct {
			Model    string
			Messages []struct{ Role, Content string }
		}
		if r.URL.Path != "/v1/chat/completions" || json.NewDecoder(r.Body).Decode(&call) != nil || len(call.Messages) != 2 {
			http.Error(w, "bad call", http.StatusBadRequest)
			return
		}
		mu.Lock()
		models, auths = append(models, call.Model), append(auths, r.Header.Get("Authorization"))
		mu.Unlock()
		json.NewEncoder(w).Encode(map[string]any{"choices": []map[string]any{{"message": map[string]string{"content": answerFor(t, call.Messages[1].Content)}}}})
	}))
	defer srv.Close()
	cat, out := copyTestCatalog(t), filepath.Join(t.TempDir(), "drafts")
	code, stdout, stderr := runCLI("requests", "draft", "--catalog", cat, "--out", out, "--endpoint", srv.URL+"/v1",
		"--model", "qwen3:32b", "--api-key-env", "MCPSEARCH_TEST_LLM_KEY", "--concurrency", "3")
	if code != 0 || !strings.Contains(stdout, "drafted the requests of 10 items") || !strings.Contains(stdout, "requests apply --catalog") {
		t.Fatalf("draft: exit %d, %s%s", code, stdout, stderr)
	}
	if strings.Contains(stdout+stderr, key) {
		t.Error("draft printed the API key")
	}
	for i := range models {
		if models[i] != "qwen3:32b" || auths[i] != "Bearer "+key {
			t.Errorf("call %d: model %q, Authorization %q; want qwen3:32b and the key of MCPSEARCH_TEST_LLM_KEY", i, models[i], auths[i])
		}
	}
	applyDrafts(t, cat, out, "notes", "weather")
	if code, stdout, _ := runCLI("requests", "draft", "--catalog", cat, "--out", out, "--endpoint", srv.URL+"/v1", "--model", "m"); code != 0 || !strings.Contains(stdout, "nothing to draft") {
		t.Errorf("draft after apply: exit %d, %s; want nothing to draft", code, stdout)
	}
}

// isolateAWS points the AWS configuration at an empty directory and turns
// off every credential source but the environment's.
func isolateAWS(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("AWS_CONFIG_FILE", filepath.Join(dir, "config"))
	t.Setenv("AWS_SHARED_CREDENTIALS_FILE", filepath.Join(dir, "credentials"))
	t.Setenv("AWS_EC2_METADATA_DISABLED", "true")
	for _, v := range []string{"AWS_PROFILE", "AWS_DEFAULT_PROFILE", "AWS_REGION", "AWS_DEFAULT_REGION", "AWS_WEB_IDENTITY_TOKEN_FILE", "AWS_ROLE_ARN",
		"AWS_CONTAINER_CREDENTIALS_RELATIVE_URI", "AWS_CONTAINER_CREDENTIALS_FULL_URI", "AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY", "AWS_SESSION_TOKEN"} {
		t.Setenv(v, "")
	}
}

// TestRequestsDraftBedrock: with --bedrock the calls go to the Converse
// API of the model, signed with SigV4 for service bedrock in the region
// with the credentials of the environment, and the text of the answer's
// message is read; without credentials draft fails before asking.
func TestRequestsDraftBedrock(t *testing.T) {
	isolateAWS(t)
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDDRAFTTEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "draft/test/secret")
	t.Setenv("AWS_SESSION_TOKEN", "draft-session")
	signed := regexp.MustCompile(`^AWS4-HMAC-SHA256 Credential=AKIDDRAFTTEST/\d{8}/eu-central-1/bedrock/aws4_request, SignedHeaders=\S+, Signature=[0-9a-f]{64}$`)
	var calls int
	var mu sync.Mutex
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var call struct {
			Messages []struct{ Content []struct{ Text string } }
		}
		switch {
		case r.URL.EscapedPath() != "/model/anthropic.claude-3-5-haiku-20241022-v1%3A0/converse":
			http.Error(w, `{"message":"no such path `+r.URL.EscapedPath()+`"}`, http.StatusNotFound)
			return
		case !signed.MatchString(r.Header.Get("Authorization")) || r.Header.Get("X-Amz-Security-Token") != "draft-session":
			http.Error(w, `{"message":"unsigned: `+r.Header.Get("Authorization")+`"}`, http.StatusForbidden)
			return
		case json.NewDecoder(r.Body).Decode(&call) != nil || len(call.Messages) != 1 || len(call.Messages[0].Content) != 1:
			http.Error(w, `{"message":"not a Converse call"}`, http.StatusBadRequest)
			return
		}
		mu.Lock()
		calls++
		mu.Unlock()
		json.NewEncoder(w).Encode(map[string]any{"output": map[string]any{"message": map[string]any{"role": "assistant",
			"content": []map[string]string{{"text": answerFor(t, call.Messages[0].Content[0].Text)}}}}, "stopReason": "end_turn"})
	}))
	defer srv.Close()
	cat, out := copyTestCatalog(t), t.TempDir()
	args := []string{"requests", "draft", "--catalog", cat, "--out", out, "--bedrock", "--region", "eu-central-1",
		"--model", "anthropic.claude-3-5-haiku-20241022-v1:0", "--endpoint", srv.URL, "--server", "weather"}
	if code, stdout, stderr := runCLI(args...); code != 0 || calls != 2 {
		t.Fatalf("draft: exit %d after %d calls, %s%s", code, calls, stdout, stderr)
	}
	applyDrafts(t, cat, out, "weather")
	t.Setenv("AWS_ACCESS_KEY_ID", "")
	code, stdout, stderr := runCLI(append(args, "--all")...)
	if code != 1 || !strings.Contains(stderr, "AWS credentials") || calls != 2 {
		t.Errorf("no credentials: exit %d after %d calls, %s%s; want exit 1 naming the credentials, nothing asked", code, calls, stdout, stderr)
	}
}

// TestRequestsDraftFlags: flags that do not go together, or a key
// variable that is not set, are refused before anything is asked.
func TestRequestsDraftFlags(t *testing.T) {
	cat, out := copyTestCatalog(t), t.TempDir()
	base := []string{"requests", "draft", "--catalog", cat, "--out", out, "--model", "m"}
	t.Setenv("MCPSEARCH_TEST_UNSET_KEY", "")
	for _, test := range []struct {
		args []string
		code int
		want string
	}{
		{nil, 2, "--endpoint URL (OpenAI-compatible) or --bedrock"},
		{[]string{"--bedrock", "--api-key-env", "K"}, 2, "--api-key-env is for --endpoint"},
		{[]string{"--endpoint", "http://127.0.0.1:9/v1", "--region", "eu-west-1"}, 2, "--region is for --bedrock"},
		{[]string{"--endpoint", "127.0.0.1:9/v1"}, 2, "want an http:// or https:// URL"},
		{[]string{"--endpoint", "http://127.0.0.1:9/v1", "--count", "33"}, 2, "--count 33: want 1 to 32"},
		{[]string{"--endpoint", "http://127.0.0.1:9/v1", "--all", "--item", "x"}, 2, "--all and --item"},
		{[]string{"--endpoint", "http://127.0.0.1:9/v1", "--concurrency", "65"}, 2, "--concurrency 65: want 1 to 64"},
		{[]string{"--endpoint", "http://127.0.0.1:9/v1", "--retries", "11"}, 2, "--retries 0 to 10"},
		{[]string{"--endpoint", "http://127.0.0.1:9/v1", "--api-key-env", "MCPSEARCH_TEST_UNSET_KEY"}, 1, "the environment variable MCPSEARCH_TEST_UNSET_KEY is not set"},
	} {
		code, stdout, stderr := runCLI(append(base, test.args...)...)
		if code != test.code || !strings.Contains(stderr, test.want) {
			t.Errorf("%q: exit %d, %s%s; want exit %d saying %q", test.args, code, stdout, stderr, test.code, test.want)
		}
	}
	if entries, _ := os.ReadDir(out); len(entries) != 0 {
		t.Errorf("refused flags left %d files in the drafts' directory", len(entries))
	}
}
