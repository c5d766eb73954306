package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/server"
)

// tools is a small in-memory ext.Searcher: it scores a tool by the number
// of query words its description holds.
type tools []string

func (t tools) Version() string { return "example-1" }

func (t tools) Search(_ context.Context, q ext.Query) (*ext.Page, error) {
	page := &ext.Page{}
	for _, name := range t {
		score := 0
		for _, w := range strings.Fields(q.Text) {
			score += strings.Count(strings.ReplaceAll(name, "_", " "), w)
		}
		if score > 0 && len(page.Items) < q.Limit {
			obj := `{"name":"browser__` + name + `","inputSchema":{"type":"object"}}`
			page.Items = append(page.Items, ext.Hit{Object: json.RawMessage(obj), Server: "browser", Score: float64(score)})
		}
	}
	return page, nil
}

func (t tools) List(context.Context, ext.Kind, int, int) (*ext.Page, error) {
	return &ext.Page{}, nil
}

// quiet drops the request log.
var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// post sends one JSON-RPC message and returns the answer's body.
func post(url, body string) string {
	resp, err := http.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		return err.Error()
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return string(out)
}

// Serve a searcher over HTTP and search its tools.
func ExampleNew() {
	h := server.New(tools{"take_screenshot", "click", "screenshot_diff"}, &server.Options{Logger: quiet})
	srv := httptest.NewServer(h)
	defer srv.Close()

	fmt.Print(post(srv.URL+"/mcp", `{"jsonrpc":"2.0","id":1,"method":"tools/search","params":{"query":"screenshot","limit":2}}`))
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{"tools":[{"_meta":{"io.github.mcpsearch/score":1,"io.github.mcpsearch/server":"browser"},"name":"browser__take_screenshot","inputSchema":{"type":"object"}},{"_meta":{"io.github.mcpsearch/score":1,"io.github.mcpsearch/server":"browser"},"name":"browser__screenshot_diff","inputSchema":{"type":"object"}}]}}
}

// The initialize result advertises the extension.
func ExampleHandler_ServeHTTP() {
	srv := httptest.NewServer(server.New(tools{"click"}, &server.Options{Name: "example", Version: "1.0", Logger: quiet}))
	defer srv.Close()

	var answer struct {
		Result struct {
			ProtocolVersion string         `json:"protocolVersion"`
			Capabilities    map[string]any `json:"capabilities"`
		} `json:"result"`
	}
	json.Unmarshal([]byte(post(srv.URL+"/mcp", `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`)), &answer)
	caps, _ := json.MarshalIndent(answer.Result.Capabilities, "", "  ")
	fmt.Println(answer.Result.ProtocolVersion)
	fmt.Println(string(caps))
	// Output:
	// 2025-11-25
	// {
	//   "experimental": {
	//     "search": {
	//       "explain": true,
	//       "index": "example-1",
	//       "listQuery": [
	//         "tools/list",
	//         "prompts/list",
	//         "resources/list",
	//         "resources/templates/list"
	//       ],
	//       "maxPageSize": 50,
	//       "methods": [
	//         "tools/search",
	//         "prompts/search",
	//         "resources/search",
	//         "resources/templates/search"
	//       ]
	//     }
	//   },
	//   "extensions": {
	//     "io.github.mcpsearch/search": {
	//       "explain": true,
	//       "index": "example-1",
	//       "listQuery": [
	//         "tools/list",
	//         "prompts/list",
	//         "resources/list",
	//         "resources/templates/list"
	//       ],
	//       "maxPageSize": 50,
	//       "methods": [
	//         "tools/search",
	//         "prompts/search",
	//         "resources/search",
	//         "resources/templates/search"
	//       ]
	//     }
	//   },
	//   "prompts": {
	//     "search": true
	//   },
	//   "resources": {
	//     "search": true
	//   },
	//   "tools": {
	//     "dynamic": true,
	//     "listChanged": false,
	//     "search": true
	//   }
	// }
}
