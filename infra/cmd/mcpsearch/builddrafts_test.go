package main

import (
	"encoding/json"
	"maps"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// scriptedChat is an OpenAI-compatible endpoint on 127.0.0.1 that answers
// each item with draftedFor and records the items asked and the
// Authorization headers.
type scriptedChat struct {
	URL   string
	mu    sync.Mutex
	items []string
	auths []string
}

func newScriptedChat(t *testing.T) *scriptedChat {
	s := &scriptedChat{}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var call struct {
			Messages []struct{ Role, Content string }
		}
		if r.URL.Path != "/v1/chat/completions" || json.NewDecoder(r.Body).Decode(&call) != nil || len(call.Messages) != 2 {
			http.Error(w, "bad call", http.StatusBadRequest)
			return
		}
		s.mu.Lock()
		if m := promptItem.FindStringSubmatch(call.Messages[1].Content); m != nil {
			s.items = append(s.items, m[1])
		}
		s.auths = append(s.auths, r.Header.Get("Authorization"))
		s.mu.Unlock()
		json.NewEncoder(w).Encode(map[string]any{"choices": []map[string]any{{"message": map[string]string{"content": answerFor(t, call.Messages[1].Content)}}}})
	}))
	t.Cleanup(srv.Close)
	s.URL = srv.URL + "/v1"
	return s
}

// asked returns the items asked since the last call, sorted.
func (s *scriptedChat) asked() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := slices.Clone(s.items)
	slices.Sort(out)
	s.items = nil
	return out
}

// dirBytes is the content of each file of dir, by name.
func dirBytes(t *testing.T, dir string) map[string]string {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]string{}
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		out[e.Name()] = string(data)
	}
	return out
}

// TestBuildDrafts: build with --draft-model drafts the items without
// requests into CATALOG/drafts and builds with them (the coverage line
// counts them apart); a second build of the same inputs asks nothing and
// gives the same drafts and the same index version; a build without a
// model uses them too; after one item changes, a build without a model
// says 1 item lacks requests and how to draft it, and one with the model
// asks for that item only. The key is never printed.
func TestBuildDrafts(t *testing.T) {
	const key = "sk-build-draft-5678"
	t.Setenv("MCPSEARCH_TEST_DRAFT_KEY", key)
	chat := newScriptedChat(t)
	cat := copyTestCatalog(t)
	drafts := filepath.Join(cat, "drafts")
	model := []string{"--draft-model", "openai:" + chat.URL + "#qwen3:32b", "--draft-api-key-env", "MCPSEARCH_TEST_DRAFT_KEY"}
	build := func(out string, args ...string) (string, string) {
		t.Helper()
		code, stdout, stderr := runCLI(append([]string{"build", "--catalog", cat, "--out", out}, args...)...)
		if code != 0 {
			t.Fatalf("build %q: exit %d, %s%s", args, code, stdout, stderr)
		}
		if strings.Contains(stdout+stderr, key) {
			t.Error("build printed the API key")
		}
		return stdout, stderr
	}
	first := filepath.Join(t.TempDir(), "b1")
	out, _ := build(first, model...)
	if got := chat.asked(); len(got) != 10 || !strings.Contains(out, "drafted the requests of 10 items with openai:qwen3:32b") ||
		!strings.Contains(out, ", 10 drafted (unreviewed, in "+drafts+"), 0 none") || strings.Contains(out, "lack requests") {
		t.Fatalf("first build asked %q, printed:\n%s\nwant the 10 items drafted and counted apart", got, out)
	}
	for _, a := range chat.auths {
		if a != "Bearer "+key {
			t.Errorf("Authorization %q, want the key of MCPSEARCH_TEST_DRAFT_KEY", a)
		}
	}
	if code, out, _ := runCLI("requests", "coverage", "--catalog", cat, "--items"); code != 0 || !strings.Contains(out, "weather\tweather__get_forecast\tdraft\n") {
		t.Errorf("requests coverage --items: exit %d, %s; want the drafted items said so", code, out)
	}
	if code, out, _ := runCLI("requests", "coverage", "--catalog", cat); code != 0 || !strings.Contains(out, ", 10 drafted (unreviewed, in "+drafts+"), 0 none") {
		t.Errorf("requests coverage: exit %d, %s; want the drafted items counted apart", code, out)
	}
	files := dirBytes(t, drafts)
	if len(files) != 2 {
		t.Fatalf("drafts %v, want notes.json and weather.json", slices.Collect(maps.Keys(files)))
	}

	second := filepath.Join(t.TempDir(), "b2")
	out, _ = build(second, model...)
	if got := chat.asked(); len(got) != 0 || strings.Contains(out, "drafted the requests") {
		t.Errorf("second build asked %q, printed %s; want nothing asked", got, out)
	}
	if !maps.Equal(dirBytes(t, drafts), files) {
		t.Error("the second build changed the drafts")
	}
	if a, b := mustVerify(t, first).IndexVersion, mustVerify(t, second).IndexVersion; a != b {
		t.Errorf("index versions %s and %s: want the same bundle from the same inputs", a, b)
	}
	noModel := filepath.Join(t.TempDir(), "b3")
	if out, _ = build(noModel); !strings.Contains(out, ", 10 drafted (") || mustVerify(t, noModel).IndexVersion != mustVerify(t, first).IndexVersion {
		t.Errorf("without a model: %s; want the drafts applied, the same bundle", out)
	}

	data, _ := os.ReadFile(filepath.Join(cat, "weather.json"))
	changed := strings.Replace(string(data), "Get the weather forecast for a city", "Tell the forecast for a town", 1)
	writeFile(t, filepath.Join(cat, "weather.json"), changed)
	out, _ = build(filepath.Join(t.TempDir(), "b4"))
	wantCmd := "mcpsearch build --catalog " + cat + " --out "
	if !strings.Contains(out, "1 items lack requests (none of their own, of the library's or drafted) (1 with a draft of what they were before); to draft them into "+drafts+": "+wantCmd) ||
		!strings.Contains(out, ", 9 drafted (") || len(chat.asked()) != 0 {
		t.Errorf("changed item, no model: %s; want 1 item lacking requests, its stale draft not applied, and the command", out)
	}
	out, _ = build(filepath.Join(t.TempDir(), "b5"), model...)
	if got := chat.asked(); !slices.Equal(got, []string{"get_forecast"}) || !strings.Contains(out, "drafted the requests of 1 items") {
		t.Errorf("changed item, with the model: asked %q, printed %s; want get_forecast only", got, out)
	}
	after := dirBytes(t, drafts)
	if after["notes.json"] != files["notes.json"] || after["weather.json"] == files["weather.json"] {
		t.Error("want weather.json redrafted and notes.json unchanged")
	}
}

// TestBuildWithoutModelSaysHow: without a model the build still builds,
// and says how many items lack requests and the command that drafts
// them, with the drafts' directory it was given.
func TestBuildWithoutModelSaysHow(t *testing.T) {
	cat := copyTestCatalog(t)
	out, drafts := filepath.Join(t.TempDir(), "b"), filepath.Join(t.TempDir(), "my drafts")
	code, stdout, stderr := runCLI("build", "--catalog", cat, "--out", out, "--drafts", drafts)
	want := "10 items lack requests (none of their own, of the library's or drafted); to draft them into " + drafts + ": mcpsearch build --catalog " + cat +
		" --out " + out + " --drafts '" + drafts + "' --draft-model openai:URL#NAME [--draft-api-key-env VARIABLE] (or bedrock:MODEL_ID)"
	if code != 0 || !strings.Contains(stdout, want) {
		t.Fatalf("exit %d, %s%s; want a bundle and %q", code, stdout, stderr, want)
	}
	mustVerify(t, out)
	if _, err := os.Stat(drafts); !os.IsNotExist(err) {
		t.Errorf("the drafts' directory: %v; want none made without a model", err)
	}
}

// TestBuildDraftModelFails: an endpoint that refuses the key, or is down,
// fails the build with an error naming the endpoint (never the key); no
// draft file and no bundle is written.
func TestBuildDraftModelFails(t *testing.T) {
	const key = "sk-build-refused-9012"
	t.Setenv("MCPSEARCH_TEST_DRAFT_KEY", key)
	refusing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error":{"message":"invalid api key"}}`, http.StatusUnauthorized)
	}))
	defer refusing.Close()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	down := "http://" + l.Addr().String() + "/v1"
	l.Close()
	for _, endpoint := range []string{refusing.URL + "/v1", down} {
		cat := copyTestCatalog(t)
		out := filepath.Join(t.TempDir(), "b")
		code, stdout, stderr := runCLI("build", "--catalog", cat, "--out", out, "--draft-model", "openai:"+endpoint+"#m",
			"--draft-api-key-env", "MCPSEARCH_TEST_DRAFT_KEY")
		if code != 1 || !strings.Contains(stderr, "drafting requests into "+filepath.Join(cat, "drafts")) || !strings.Contains(stderr, endpoint) || strings.Contains(stdout+stderr, key) {
			t.Errorf("%s: exit %d, %s%s; want exit 1 naming the endpoint, not the key", endpoint, code, stdout, stderr)
		}
		for _, dir := range []string{filepath.Join(cat, "drafts"), out} {
			if _, err := os.Stat(dir); !os.IsNotExist(err) {
				t.Errorf("%s: %s exists (%v); want nothing written", endpoint, dir, err)
			}
		}
	}
}

// TestBuildDraftFlags: drafting flags that do not go together are refused
// before anything is asked or built.
func TestBuildDraftFlags(t *testing.T) {
	cat := copyTestCatalog(t)
	out := filepath.Join(t.TempDir(), "b")
	t.Setenv("MCPSEARCH_TEST_UNSET_KEY", "")
	for _, test := range []struct {
		args []string
		code int
		want string
	}{
		{[]string{"--draft-model", "gpt-4o"}, 2, `--draft-model "gpt-4o": want openai:URL#NAME or bedrock:ID`},
		{[]string{"--draft-model", "bedrock:"}, 2, "want openai:URL#NAME or bedrock:ID"},
		{[]string{"--draft-model", "openai:http://127.0.0.1:9/v1"}, 2, "the endpoint's URL, then # and the model's name"},
		{[]string{"--draft-model", "openai:127.0.0.1:9/v1#m"}, 2, "--draft-model openai:URL \"127.0.0.1:9/v1\": want an http:// or https:// URL"},
		{[]string{"--draft-api-key-env", "K"}, 2, "go with --draft-model"},
		{[]string{"--draft-model", "bedrock:m", "--draft-api-key-env", "K"}, 2, "--draft-api-key-env is for openai:"},
		{[]string{"--draft-model", "openai:http://127.0.0.1:9/v1#m", "--draft-region", "eu-west-1"}, 2, "are for bedrock:"},
		{[]string{"--draft-model", "openai:http://127.0.0.1:9/v1#m", "--draft-api-key-env", "MCPSEARCH_TEST_UNSET_KEY"}, 1, "MCPSEARCH_TEST_UNSET_KEY is not set"},
	} {
		code, stdout, stderr := runCLI(append([]string{"build", "--catalog", cat, "--out", out}, test.args...)...)
		if code != test.code || !strings.Contains(stderr, test.want) {
			t.Errorf("%q: exit %d, %s%s; want exit %d saying %q", test.args, code, stdout, stderr, test.code, test.want)
		}
	}
	for _, dir := range []string{filepath.Join(cat, "drafts"), out} {
		if _, err := os.Stat(dir); !os.IsNotExist(err) {
			t.Errorf("%s exists (%v); want nothing written", dir, err)
		}
	}
}

// TestPackageDraftsWithBedrock: package with --draft-model bedrock:ID
// drafts the items without requests (signed calls to the scripted
// Converse endpoint) before it compiles, and the artifact's index is the
// bundle build makes from the same drafts; a second package asks nothing.
func TestPackageDraftsWithBedrock(t *testing.T) {
	isolateAWS(t)
	t.Setenv("AWS_ACCESS_KEY_ID", "AKIDPACKAGETEST")
	t.Setenv("AWS_SECRET_ACCESS_KEY", "package/test/secret")
	var mu sync.Mutex
	calls := 0
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var call struct {
			Messages []struct{ Content []struct{ Text string } }
		}
		if !strings.HasPrefix(r.Header.Get("Authorization"), "AWS4-HMAC-SHA256 Credential=AKIDPACKAGETEST/") || json.NewDecoder(r.Body).Decode(&call) != nil ||
			len(call.Messages) != 1 || len(call.Messages[0].Content) != 1 {
			http.Error(w, `{"message":"not a signed Converse call"}`, http.StatusBadRequest)
			return
		}
		mu.Lock()
		calls++
		mu.Unlock()
		json.NewEncoder(w).Encode(map[string]any{"output": map[string]any{"message": map[string]any{"role": "assistant",
			"content": []map[string]string{{"text": answerFor(t, call.Messages[0].Content[0].Text)}}}}, "stopReason": "end_turn"})
	}))
	defer srv.Close()
	cat := copyTestCatalog(t)
	model := []string{"--draft-model", "bedrock:anthropic.claude-3-5-haiku-20241022-v1:0", "--draft-region", "eu-central-1", "--draft-endpoint", srv.URL}
	pkg := func(out string) string {
		t.Helper()
		code, stdout, stderr := runCLI(append([]string{"package", "--catalog", cat, "--out", out, "--arch", runtime.GOARCH, "--zip=false"}, model...)...)
		if code != 0 {
			t.Fatalf("package: exit %d, %s%s", code, stdout, stderr)
		}
		return stdout
	}
	art := filepath.Join(t.TempDir(), "art")
	if out := pkg(art); calls != 10 || !strings.Contains(out, "drafted the requests of 10 items with bedrock:anthropic.claude-3-5-haiku-20241022-v1:0") ||
		!strings.Contains(out, ", 10 drafted (") {
		t.Fatalf("package: %d calls, printed %s; want the 10 items drafted and counted", calls, out)
	}
	bundle := filepath.Join(t.TempDir(), "b")
	if code, stdout, stderr := runCLI("build", "--catalog", cat, "--out", bundle); code != 0 {
		t.Fatalf("build: exit %d, %s%s", code, stdout, stderr)
	}
	if a, b := mustVerify(t, filepath.Join(art, "index")).IndexVersion, mustVerify(t, bundle).IndexVersion; a != b {
		t.Errorf("artifact index %s, build %s: want the same bundle of the same drafts", a, b)
	}
	if out := pkg(filepath.Join(t.TempDir(), "art2")); calls != 10 || strings.Contains(out, "drafted the requests") {
		t.Errorf("second package: %d calls, printed %s; want none", calls-10, out)
	}
}

// TestMakefilePassesDraftSettings: make build-% passes DRAFT_MODEL,
// DRAFT_API_KEY_ENV, DRAFT_REGION and DRAFTS_DIR to mcpsearch package as
// flags, the name of the key's variable and never the key.
func TestMakefilePassesDraftSettings(t *testing.T) {
	makeBin, err := exec.LookPath("make")
	if err != nil {
		t.Fatal("make is not installed (apt-get install make):", err)
	}
	const key = "sk-never-on-the-command-line"
	cmd := exec.Command(makeBin, "-n", "-C", "../../..", "build-SearchFunction", "ARTIFACTS_DIR=/tmp/art")
	cmd.Env = append(os.Environ(), "DRAFT_MODEL=openai:https://llm.example/v1#qwen3", "DRAFT_API_KEY_ENV=TEAM_LLM_KEY", "TEAM_LLM_KEY="+key,
		"DRAFTS_DIR=/src/drafts")
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("make -n: %v\n%s", err, out)
	}
	for _, want := range []string{`--draft-model "openai:https://llm.example/v1#qwen3"`, `--draft-api-key-env "TEAM_LLM_KEY"`, `--drafts "/src/drafts"`} {
		if !strings.Contains(string(out), want) {
			t.Errorf("make -n build-SearchFunction:\n%s\nwant %s", out, want)
		}
	}
	if strings.Contains(string(out), key) || strings.Contains(string(out), "--draft-region") {
		t.Errorf("make -n build-SearchFunction:\n%s\nwant neither the key nor a region not set", out)
	}
}
