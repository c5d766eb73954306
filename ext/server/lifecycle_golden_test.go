package server

import (
	"bytes"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
)

var update = flag.Bool("update", false, "rewrite the golden files under testdata")

// goldenDir holds one file per case: the request sent over HTTP and the
// answer received, byte for byte (headers but Date and X-Request-Id).
const goldenDir = "testdata/lifecycle"

// goldenCase is one HTTP request to the server.
type goldenCase struct {
	name    string
	headers []string // name, value, …; a name given twice is sent twice
	body    string
}

const (
	hVersion = "Mcp-Protocol-Version"
	hMethod  = "Mcp-Method"
	modern   = "2026-07-28"
	client   = `"clientInfo":{"name":"golden","version":"1"}`
	meta     = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientInfo":{"name":"golden","version":"1"},"io.modelcontextprotocol/clientCapabilities":{}}`
)

func initBody(id, version string) string {
	return `{"jsonrpc":"2.0","id":` + id + `,"method":"initialize","params":{"protocolVersion":"` + version + `","capabilities":{},` + client + `}}`
}

func modernBody(method, params string) string {
	if params != "" {
		params += ","
	}
	return `{"jsonrpc":"2.0","id":7,"method":"` + method + `","params":{` + params + meta + `}}`
}

func withVersion(body, version string) string {
	return strings.Replace(body, `"io.modelcontextprotocol/protocolVersion":"2026-07-28"`, `"io.modelcontextprotocol/protocolVersion":"`+version+`"`, 1)
}

func modernHeadersFor(method string) []string {
	return []string{hVersion, modern, hMethod, method}
}

// goldenCases are the lifecycle answers (initialize in every protocol
// version, server/discover, ping, notifications and methods no one
// answers) and a few of the extension's own, in both eras.
var goldenCases = []goldenCase{
	{"initialize-2025-11-25", nil, initBody("1", "2025-11-25")},
	{"initialize-2025-06-18", nil, initBody("1", "2025-06-18")},
	{"initialize-2025-03-26", nil, initBody("1", "2025-03-26")},
	{"initialize-2024-11-05", nil, initBody("1", "2024-11-05")},
	{"initialize-2026-07-28-by-handshake", nil, initBody("1", modern)},
	{"initialize-unknown-old-version", nil, initBody("1", "1999-01-01")},
	{"initialize-unknown-new-version", nil, initBody("1", "2099-01-01")},
	{"initialize-empty-version", nil, initBody("1", "")},
	{"initialize-no-version", nil, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"capabilities":{},` + client + `}}`},
	{"initialize-no-params", nil, `{"jsonrpc":"2.0","id":1,"method":"initialize"}`},
	{"initialize-string-id", nil, initBody(`"init-1"`, "2025-11-25")},
	{"initialize-big-id", nil, initBody("123456789012345678901234567890", "2025-11-25")},
	{"initialize-exponent-id", nil, initBody("1e3", "2025-11-25")},
	{"initialize-zero-id", nil, initBody("0", "2025-11-25")},
	{"initialize-header-2025-06-18", []string{hVersion, "2025-06-18"}, initBody("1", "2025-06-18")},
	{"initialize-header-unknown", []string{hVersion, "1999-01-01"}, initBody("1", "2025-06-18")},
	{"initialize-version-not-a-string", nil, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":5}}`},
	{"initialize-as-notification", nil, `{"jsonrpc":"2.0","method":"initialize","params":{"protocolVersion":"2025-11-25"}}`},
	{"initialize-modern", modernHeadersFor("initialize"), modernBody("initialize", `"protocolVersion":"2025-11-25"`)},
	{"initialize-unknown-member", nil, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","extra":true}}`},
	{"initialize-meta-old-version", nil, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","_meta":{"io.modelcontextprotocol/protocolVersion":"2025-06-18"}}}`},

	{"ping", nil, `{"jsonrpc":"2.0","id":2,"method":"ping"}`},
	{"ping-empty-params", nil, `{"jsonrpc":"2.0","id":"p","method":"ping","params":{}}`},
	{"ping-header-2025-11-25", []string{hVersion, "2025-11-25"}, `{"jsonrpc":"2.0","id":2,"method":"ping"}`},
	{"ping-header-unknown", []string{hVersion, "1999-01-01"}, `{"jsonrpc":"2.0","id":2,"method":"ping"}`},
	{"ping-header-2025-03-26", []string{hVersion, "2025-03-26"}, `{"jsonrpc":"2.0","id":2,"method":"ping"}`},
	{"ping-modern", modernHeadersFor("ping"), modernBody("ping", "")},
	{"ping-params-array", nil, `{"jsonrpc":"2.0","id":2,"method":"ping","params":[]}`},
	{"ping-bad-utf8-escape", nil, `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"x":"\ud800"}}`},

	{"notification-initialized", nil, `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
	{"notification-cancelled", nil, `{"jsonrpc":"2.0","method":"notifications/cancelled","params":{"requestId":3,"reason":"gone"}}`},
	{"notification-unknown", nil, `{"jsonrpc":"2.0","method":"notifications/whatever","params":{}}`},
	{"notification-header-2025-06-18", []string{hVersion, "2025-06-18"}, `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
	{"notification-header-unknown", []string{hVersion, "1999-01-01"}, `{"jsonrpc":"2.0","method":"notifications/initialized"}`},
	{"notification-modern", modernHeadersFor("notifications/initialized"), `{"jsonrpc":"2.0","method":"notifications/initialized","params":{` + meta + `}}`},
	{"notification-modern-no-version-header", []string{hMethod, "notifications/initialized"}, `{"jsonrpc":"2.0","method":"notifications/initialized","params":{` + meta + `}}`},
	{"notification-of-a-search-method", nil, `{"jsonrpc":"2.0","method":"tools/search","params":{"query":"x"}}`},
	{"search-header-2024-11-05", []string{hVersion, "2024-11-05"}, `{"jsonrpc":"2.0","id":3,"method":"tools/search","params":{"query":"x"}}`},
	{"notification-of-a-search-method-header-unknown", []string{hVersion, "1999-01-01"}, `{"jsonrpc":"2.0","method":"tools/search","params":{"query":"x"}}`},
	{"notification-of-a-search-method-modern-no-version-header", []string{hMethod, "tools/search"}, `{"jsonrpc":"2.0","method":"tools/search","params":{` + meta + `}}`},
	{"notification-params-array", nil, `{"jsonrpc":"2.0","method":"notifications/initialized","params":[]}`},

	{"discover", modernHeadersFor("server/discover"), modernBody("server/discover", "")},
	{"discover-string-id", modernHeadersFor("server/discover"), strings.Replace(modernBody("server/discover", ""), `"id":7`, `"id":"d"`, 1)},
	{"discover-legacy", nil, `{"jsonrpc":"2.0","id":4,"method":"server/discover"}`},
	{"discover-no-version-header", []string{hMethod, "server/discover"}, modernBody("server/discover", "")},
	{"discover-method-header-mismatch", modernHeadersFor("ping"), modernBody("server/discover", "")},
	{"discover-no-method-header", []string{hVersion, modern}, modernBody("server/discover", "")},
	{"discover-version-mismatch", []string{hVersion, "2025-11-25", hMethod, "server/discover"}, modernBody("server/discover", "")},
	{"discover-unsupported-version", []string{hVersion, "2099-01-01", hMethod, "server/discover"}, withVersion(modernBody("server/discover", ""), "2099-01-01")},
	{"discover-no-capabilities", modernHeadersFor("server/discover"),
		`{"jsonrpc":"2.0","id":7,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`},
	{"discover-last-event-id", append(modernHeadersFor("server/discover"), "Last-Event-ID", "1"), modernBody("server/discover", "")},

	{"unknown-method", nil, `{"jsonrpc":"2.0","id":5,"method":"foo/bar","params":{}}`},
	{"unknown-method-modern", modernHeadersFor("foo/bar"), modernBody("foo/bar", "")},
	{"logging-set-level", nil, `{"jsonrpc":"2.0","id":5,"method":"logging/setLevel","params":{"level":"info"}}`},
	{"completion-complete", nil, `{"jsonrpc":"2.0","id":5,"method":"completion/complete","params":{}}`},
	{"resources-subscribe", nil, `{"jsonrpc":"2.0","id":5,"method":"resources/subscribe","params":{"uri":"file:///readme.md"}}`},
	{"resources-unsubscribe", nil, `{"jsonrpc":"2.0","id":5,"method":"resources/unsubscribe","params":{"uri":"file:///readme.md"}}`},
	{"tasks-list", nil, `{"jsonrpc":"2.0","id":5,"method":"tasks/list","params":{}}`},
	{"subscriptions-listen-legacy", nil, `{"jsonrpc":"2.0","id":5,"method":"subscriptions/listen","params":{}}`},
	{"logging-set-level-modern", modernHeadersFor("logging/setLevel"), modernBody("logging/setLevel", `"level":"info"`)},

	{"tools-search", nil, `{"jsonrpc":"2.0","id":8,"method":"tools/search","params":{"query":"screenshot","limit":2}}`},
	{"tools-search-modern", modernHeadersFor("tools/search"), modernBody("tools/search", `"query":"screenshot","limit":2`)},
	{"tools-search-last-event-id", append(modernHeadersFor("tools/search"), "Last-Event-ID", "1"), modernBody("tools/search", `"query":"screenshot"`)},
	{"tools-search-no-version-header", []string{hMethod, "tools/search"}, modernBody("tools/search", `"query":"screenshot"`)},
	{"tools-search-method-header-mismatch", modernHeadersFor("ping"), modernBody("tools/search", `"query":"screenshot"`)},
	{"tools-search-no-method-header", []string{hVersion, modern}, modernBody("tools/search", `"query":"screenshot"`)},
	{"tools-search-version-mismatch", []string{hVersion, "2025-11-25", hMethod, "tools/search"}, modernBody("tools/search", `"query":"screenshot"`)},
	{"tools-search-unsupported-version", []string{hVersion, "2099-01-01", hMethod, "tools/search"}, withVersion(modernBody("tools/search", `"query":"screenshot"`), "2099-01-01")},
	{"tools-search-no-capabilities", modernHeadersFor("tools/search"),
		`{"jsonrpc":"2.0","id":7,"method":"tools/search","params":{"query":"screenshot","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`},
	{"tools-search-header-unknown", []string{hVersion, "1999-01-01"}, `{"jsonrpc":"2.0","id":8,"method":"tools/search","params":{"query":"screenshot"}}`},
	{"tools-list-modern", modernHeadersFor("tools/list"), modernBody("tools/list", "")},
	{"tools-list-last-event-id", append(modernHeadersFor("tools/list"), "Last-Event-ID", "1"), modernBody("tools/list", "")},
	{"tools-list-last-event-id-legacy", []string{hVersion, "2025-11-25", "Last-Event-ID", "1"}, `{"jsonrpc":"2.0","id":8,"method":"tools/list"}`},
	{"tools-search-method-header-twice", append(modernHeadersFor("tools/search"), hMethod, "tools/call"), modernBody("tools/search", `"query":"screenshot"`)},
	{"tools-search-method-header-list", []string{hVersion, modern, hMethod, "tools/search, tools/call"}, modernBody("tools/search", `"query":"screenshot"`)},
	{"tools-search-version-header-twice-legacy", []string{hVersion, "2025-11-25", hVersion, "2025-06-18"}, `{"jsonrpc":"2.0","id":8,"method":"tools/search","params":{"query":"screenshot"}}`},
	{"tools-search-version-header-list-legacy", []string{hVersion, "2025-11-25,2025-06-18"}, `{"jsonrpc":"2.0","id":8,"method":"tools/search","params":{"query":"screenshot"}}`},
	{"tools-call-name-header-twice", append(modernHeadersFor("tools/call"), "Mcp-Name", "srv__tool_000", "Mcp-Name", "srv__tool_001"), modernBody("tools/call", `"name":"srv__tool_000"`)},
	{"ping-session-header-twice", []string{"Mcp-Session-Id", "a", "Mcp-Session-Id", "b"}, `{"jsonrpc":"2.0","id":2,"method":"ping"}`},
	{"notification-method-header-twice", append(modernHeadersFor("notifications/initialized"), hMethod, "notifications/initialized"), `{"jsonrpc":"2.0","method":"notifications/initialized","params":{` + meta + `}}`},
	{"notification-of-a-search-method-params-array", nil, `{"jsonrpc":"2.0","method":"tools/search","params":[]}`},
	{"tools-list-large", nil, `{"jsonrpc":"2.0","id":8,"method":"tools/list"}`},
	{"initialize-large", nil, initBody("1", "2025-11-25")},
	{"discover-large", modernHeadersFor("server/discover"), modernBody("server/discover", "")},
	{"initialize-no-accept", []string{"Accept", ""}, initBody("1", "2025-11-25")},
	{"initialize-last-event-id", []string{"Last-Event-ID", "1"}, initBody("1", "2025-11-25")},
	{"initialize-capabilities-not-an-object", nil, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":5}}`},
	{"ping-meta-not-an-object", nil, `{"jsonrpc":"2.0","id":2,"method":"ping","params":{"_meta":5}}`},
	{"subscriptions-listen-modern", modernHeadersFor("subscriptions/listen"), modernBody("subscriptions/listen", "")},
	{"resources-subscribe-modern", modernHeadersFor("resources/subscribe"), modernBody("resources/subscribe", `"uri":"file:///readme.md"`)},
	{"resources-subscribe-uri-not-a-string", nil, `{"jsonrpc":"2.0","id":5,"method":"resources/subscribe","params":{"uri":5}}`},
	{"tasks-get", nil, `{"jsonrpc":"2.0","id":5,"method":"tasks/get","params":{"taskId":"t"}}`},
	{"tasks-get-modern", modernHeadersFor("tasks/get"), modernBody("tasks/get", `"taskId":"t"`)},
	{"tasks-result-modern", modernHeadersFor("tasks/result"), modernBody("tasks/result", `"taskId":"t"`)},
	{"tasks-cancel", nil, `{"jsonrpc":"2.0","id":5,"method":"tasks/cancel","params":{"taskId":"t"}}`},
	{"completion-complete-modern", modernHeadersFor("completion/complete"), modernBody("completion/complete", "")},
	{"notification-initialized-as-request", nil, `{"jsonrpc":"2.0","id":9,"method":"notifications/initialized"}`},
	{"notification-modern-array-params", modernHeadersFor("notifications/initialized"), `{"jsonrpc":"2.0","method":"notifications/initialized","params":[]}`},
	{"notification-modern-no-capabilities", modernHeadersFor("notifications/initialized"),
		`{"jsonrpc":"2.0","method":"notifications/initialized","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`},
	{"notification-modern-method-header-mismatch", modernHeadersFor("ping"), `{"jsonrpc":"2.0","method":"notifications/initialized","params":{` + meta + `}}`},
	{"notification-of-a-search-method-modern-method-header-mismatch", modernHeadersFor("ping"), `{"jsonrpc":"2.0","method":"tools/search","params":{` + meta + `}}`},
	{"prompts-list", nil, `{"jsonrpc":"2.0","id":8,"method":"prompts/list"}`},
	{"tools-search-select", nil, `{"jsonrpc":"2.0","id":8,"method":"tools/search","params":{"query":"select: srv__tool_002, nope,srv__tool_000, srv__tool_002,","limit":1}}`},
	{"tools-search-select-modern", modernHeadersFor("tools/search"), modernBody("tools/search", `"query":"select:srv__tool_001,mcp__search__srv__tool_000"`)},
}

// goldenServer is the server the golden answers come from: a described
// in-memory catalog with a fixed version.
func goldenServer(t *testing.T, cat ext.Searcher) *httptest.Server {
	srv := httptest.NewServer(newTestServer(t, cat, nil))
	t.Cleanup(srv.Close)
	return srv
}

// largeCatalog describes 60 servers and holds 40 tools: its answers pass
// the size up to which net/http sets Content-Length by itself.
type largeCatalog struct{ *memCatalog }

func (largeCatalog) Describe() (ext.CatalogInfo, error) {
	info := ext.CatalogInfo{Counts: map[ext.Kind]int{ext.KindTool: 60}, BuiltAt: time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC), BundleBytes: 8192}
	for i := range 60 {
		info.Servers = append(info.Servers, ext.ServerInfo{Name: fmt.Sprintf("server-%02d", i), Counts: map[ext.Kind]int{ext.KindTool: 1}})
	}
	return info, nil
}

// TestLifecycleGolden pins the answers byte for byte. Run with -update
// to rewrite them; a change shows as a diff of testdata.
func TestLifecycleGolden(t *testing.T) {
	small := goldenServer(t, describedCatalog{newMemCatalog("v-golden", 3)})
	large := goldenServer(t, largeCatalog{newMemCatalog("v-golden", 40)})
	for _, c := range goldenCases {
		t.Run(c.name, func(t *testing.T) {
			srv := small
			if strings.HasSuffix(c.name, "-large") { // sent to the server of a large catalog
				srv = large
			}
			got := exchange(t, srv, c)
			file := filepath.Join(goldenDir, c.name+".txt")
			if *update {
				if err := os.MkdirAll(goldenDir, 0o755); err != nil {
					t.Fatal(err)
				}
				if err := os.WriteFile(file, got, 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(file)
			if err != nil {
				t.Fatalf("%v (run with -update to write it)", err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("got\n%s\nwant\n%s", got, want)
			}
		})
	}
}

// exchange sends c and renders request and answer as text.
func exchange(t *testing.T, srv *httptest.Server, c goldenCase) []byte {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, srv.URL+"/mcp", strings.NewReader(c.body))
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json, text/event-stream")
	set := map[string]bool{}
	for i := 0; i+1 < len(c.headers); i += 2 {
		name := http.CanonicalHeaderKey(c.headers[i])
		switch {
		case c.headers[i+1] == "":
			req.Header.Del(name)
		case set[name]: // named twice: sent twice
			req.Header.Add(name, c.headers[i+1])
		default:
			req.Header.Set(name, c.headers[i+1])
		}
		set[name] = true
	}
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "> POST /mcp\n")
	writeHeaders(&b, "> ", req.Header)
	fmt.Fprintf(&b, ">\n> %s\n\n< %s\n", c.body, resp.Status)
	writeHeaders(&b, "< ", resp.Header)
	fmt.Fprintf(&b, "<\n%s", body)
	return b.Bytes()
}

func writeHeaders(b *bytes.Buffer, prefix string, h http.Header) {
	names := make([]string, 0, len(h))
	for name := range h {
		if name != "Date" && name != "X-Request-Id" {
			names = append(names, name)
		}
	}
	slices.Sort(names)
	for _, name := range names {
		for _, v := range h[name] {
			fmt.Fprintf(b, "%s%s: %s\n", prefix, name, v)
		}
	}
}
