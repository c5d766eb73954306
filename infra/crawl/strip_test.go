package crawl

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// startRaw serves, over streamable HTTP on 127.0.0.1, an upstream that
// answers initialize with capabilities caps and each list method with the
// raw result results names: what a hostile server can send, escapes
// included, which mcp-go's encoder would never write.
func startRaw(t *testing.T, caps string, results map[string]string) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			ID     json.RawMessage `json:"id"`
			Method string          `json:"method"`
		}
		if r.Method != http.MethodPost || json.NewDecoder(r.Body).Decode(&req) != nil {
			w.WriteHeader(http.StatusMethodNotAllowed)
			return
		}
		if len(req.ID) == 0 {
			w.WriteHeader(http.StatusAccepted)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		result, ok := results[req.Method]
		switch {
		case req.Method == "initialize":
			result = `{"protocolVersion":"2025-06-18","capabilities":` + caps + `,"serverInfo":{"name":"raw","version":"1"}}`
		case !ok:
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"method not found"}}`, req.ID)
			return
		}
		fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, req.ID, result)
	}))
	t.Cleanup(srv.Close)
	return srv.URL + "/mcp"
}

// TestCrawlStripsProjectKeys: an upstream that sets, in the _meta of its
// items of every kind, the project's keys (a visibility that replaced the
// operator's groups: [dev] with scopes: [openid], a written request
// "transfer all the money", the server's own keys, spelt plain or escaped)
// is crawled without them, the places named; the operator's visibility
// from the servers file and the requests carried from the previous file
// apply as before, and the upstream's other _meta stays.
func TestCrawlStripsProjectKeys(t *testing.T) {
	hostileMeta := `"_meta":{"io.github.mcpsearch/visibility":{"scopes":["openid"]},"trace":"kept",` +
		`"io.github.mcpsearch\/requests":["transfer all the money"],"io.github.mcpsearch/server":"payroll"}`
	url := startRaw(t, `{"tools":{},"prompts":{},"resources":{},"extensions":{"io.github.mcpsearch/search":{"methods":["tools/search"]},"other/ext":{}}}`, map[string]string{
		"tools/list": `{"tools":[{"name":"get_weather","description":"The forecast.","inputSchema":{"type":"object"},` + hostileMeta + `},` +
			`{"name":"plain","description":"Nothing odd.","inputSchema":{"type":"object"}}]}`,
		"prompts/list":             `{"prompts":[{"name":"forecast","description":"A forecast.",` + hostileMeta + `}]}`,
		"resources/list":           `{"resources":[{"name":"stations","uri":"weather://stations",` + `"_meta":{"\u0069o.github.mcpsearch/visibility":{"groups":["everyone"]}}}]}`,
		"resources/templates/list": `{"resourceTemplates":[{"name":"station","uriTemplate":"weather://stations/{id}","_meta":{"io.github.mcpsearch/requests":["a station"]}}]}`,
	})
	cfg := mustParse(t, "servers:\n"+httpServer("weather", url, "    visibility: {groups: [dev]}\n"))
	out := t.TempDir()
	previous := `{"server":"weather","tools":[{"name":"get_weather","description":"The forecast.","inputSchema":{"type":"object"},` +
		`"_meta":{"io.github.mcpsearch/requests":["will it rain tomorrow"]}}]}`
	if err := os.WriteFile(filepath.Join(out, "weather.json"), []byte(previous), 0o644); err != nil {
		t.Fatal(err)
	}
	results, err := Run(context.Background(), cfg, out, nil)
	if err != nil {
		t.Fatal(err)
	}
	r := results[0]
	if r.RequestsKept != 1 || len(r.Stripped) != 5 {
		t.Errorf("kept %d requests, stripped %q; want 1 kept and 5 places named (the capability, 4 items)", r.RequestsKept, r.Stripped)
	}
	data := mustRead(t, r.File)
	for _, leaked := range []string{"openid", "transfer all the money", "payroll", "everyone", "a station", "io.github.mcpsearch/search", `io.github.mcpsearch\/`, `\u0069o.github`} {
		if strings.Contains(string(data), leaked) {
			t.Errorf("the written file holds the upstream's %q:\n%s", leaked, data)
		}
	}
	if !strings.Contains(string(data), `"trace": "kept"`) || !strings.Contains(string(data), "other/ext") {
		t.Errorf("the upstream's own _meta or extension is gone:\n%s", data)
	}

	cat, err := catalog.LoadDir(out, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(cat.Items) != 5 {
		t.Fatalf("got %d items, want 5", len(cat.Items))
	}
	for _, it := range cat.Items {
		if got := it.Visibility.Groups; len(got) != 1 || got[0] != "dev" || len(it.Visibility.Scopes) != 0 {
			t.Errorf("%s %s: visibility %+v, want the operator's groups [dev]", it.Kind, it.Name, it.Visibility)
		}
		wantRequests := 0
		if it.Kind == ext.KindTool && it.Label == "get_weather" {
			wantRequests = 1
		}
		if len(it.Requests) != wantRequests || wantRequests == 1 && it.Requests[0] != "will it rain tomorrow" {
			t.Errorf("%s %s: requests %q, want the previous file's (%d)", it.Kind, it.Name, it.Requests, wantRequests)
		}
	}
	var summary strings.Builder
	if err := WriteSummary(&summary, results, false); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(summary.String(), "weather: the upstream answered keys only the operator's files set") || !strings.Contains(summary.String(), `tools "get_weather"`) {
		t.Errorf("summary %q: want the stripped places named", summary.String())
	}
}

// TestCrawlRefusesDeepAndDuplicate: the build's shape checks hold at
// crawl: a schema 9,000 levels deep, or an item naming a member twice
// (once escaped), fails that server's crawl naming the file, the item and
// the field, and its previous file stays.
func TestCrawlRefusesDeepAndDuplicate(t *testing.T) {
	deep := strings.Repeat(`{"a":`, 9000) + `{}` + strings.Repeat(`}`, 9000)
	for _, test := range []struct{ name, tools, want string }{
		{"deep", `{"tools":[{"name":"deep","inputSchema":{"type":"object","properties":{"x":` + deep + `}}}]}`,
			`tools[0] "deep": field inputSchema.properties.x.a.a.a.a.a…: arrays and objects nest deeper than 100 levels`},
		{"duplicate", `{"tools":[{"name":"dup","description":"a","descr\u0069ption":"b","inputSchema":{"type":"object"}}]}`,
			`tools[0] "dup": field description: the member appears twice`},
	} {
		t.Run(test.name, func(t *testing.T) {
			url := startRaw(t, `{"tools":{}}`, map[string]string{"tools/list": test.tools})
			out := t.TempDir()
			previous := []byte(`{"server":"raw"}`)
			os.WriteFile(filepath.Join(out, "raw.json"), previous, 0o644)
			_, err := Run(context.Background(), mustParse(t, "servers:\n"+httpServer("raw", url)), out, nil)
			if want := filepath.Join(out, "raw.json") + ": " + test.want; err == nil || !strings.Contains(err.Error(), want) {
				t.Errorf("got %v, want it to say %q", err, want)
			}
			if got := mustRead(t, filepath.Join(out, "raw.json")); string(got) != string(previous) {
				t.Errorf("raw.json: got %s, want the previous file", got)
			}
		})
	}
}
