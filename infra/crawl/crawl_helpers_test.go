package crawl

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
)

// secret is the token the "paged" upstream requires; it must reach the
// upstream and no file.
const secret = "s3cr3t-7d1f0c"

func lookup(env map[string]string) func(string) (string, bool) {
	return func(k string) (string, bool) { v, ok := env[k]; return v, ok }
}

// mustParse parses a servers file held in a string.
func mustParse(t *testing.T, yaml string) *Config {
	t.Helper()
	cfg, err := ParseServers("servers.yaml", []byte(yaml))
	if err != nil {
		t.Fatal(err)
	}
	return cfg
}

func httpServer(name, url string, extra ...string) string {
	return fmt.Sprintf("  - name: %s\n    transport: streamable-http\n    url: %s\n%s", name, url, strings.Join(extra, ""))
}

// readCatalog decodes a written catalog file.
func readCatalog(t *testing.T, path string) (f struct {
	Server            string
	Upstream          map[string]any
	Capabilities      map[string]any
	Tools             []json.RawMessage
	Prompts           []json.RawMessage
	Resources         []json.RawMessage
	ResourceTemplates []json.RawMessage
	ResourceContents  []Content
}) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return f
}

// sameJSON reports whether the raw objects got equal want marshalled, in
// order, comparing values (not bytes).
func sameJSON[T any](t *testing.T, what string, got []json.RawMessage, want []T) {
	t.Helper()
	if len(got) != len(want) {
		t.Errorf("%s: got %d objects, want %d", what, len(got), len(want))
		return
	}
	for i := range want {
		w, _ := json.Marshal(want[i])
		var a, b any
		json.Unmarshal(got[i], &a)
		json.Unmarshal(w, &b)
		if !reflect.DeepEqual(a, b) {
			t.Errorf("%s[%d]: got %s, want %s", what, i, got[i], w)
		}
	}
}

func assertNoSecret(t *testing.T, dir string) {
	t.Helper()
	entries, _ := os.ReadDir(dir)
	for _, e := range entries {
		data, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if bytes.Contains(data, []byte(secret)) {
			t.Errorf("%s holds the secret", e.Name())
		}
	}
}

func mustRead(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return data
}
