package server

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
)

// FuzzServeHTTP sends arbitrary bodies: every answer comes within seconds
// and is a JSON-RPC response with a coded error or a result, or an empty
// 202, and nothing panics.
func FuzzServeHTTP(f *testing.F) {
	s := newTestServer(f, newMemCatalog("v1", 20), &Options{PageSize: 3})
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/search","params":{"query":"merge","limit":2}}`,
		`{"jsonrpc":"2.0","id":"a","method":"tools/list","params":{"cursor":"AAAA"}}`,
		`{"jsonrpc":"2.0","method":"notifications/initialized"}`,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`,
		`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"f","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":1,"method":"resources/templates/search","params":{"query":"file","filter":{"servers":["srv"],"annotations":{"readOnlyHint":true}}}}`,
		`{`, `null`, `""`,
		`{"jsonrpc":"2.0","id":9007199254740993,"method":"ping"}`,
		`{"jsonrpc":"2.0","id":1e3,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"\ud83d\ude00","version":"1"}}}`,
		`{"jsonrpc":"2.0","id":"\ud800","method":"tools/search","params":{"query":"a\udc00","limit":1.0}}`,
		`{"jsonrpc":"2.0","id":1,"result":{}}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body string) {
		req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		rec := httptest.NewRecorder()
		done := make(chan struct{})
		go func() { s.ServeHTTP(rec, req); close(done) }()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Fatalf("no answer within 5 s to %q", body)
		}
		if rec.Code == http.StatusAccepted && rec.Body.Len() == 0 {
			return
		}
		var msg struct {
			JSONRPC string          `json:"jsonrpc"`
			ID      json.RawMessage `json:"id"`
			Result  json.RawMessage `json:"result"`
			Error   *ext.Error      `json:"error"`
		}
		if err := json.Unmarshal(rec.Body.Bytes(), &msg); err != nil {
			if rec.Code >= 400 && strings.HasPrefix(rec.Header().Get("Content-Type"), "text/plain") {
				return // the transport answers some refusals in plain text
			}
			t.Fatalf("status %d, body %q is not JSON: %v", rec.Code, rec.Body, err)
		}
		if (msg.Result == nil) == (msg.Error == nil) {
			t.Fatalf("body %q has neither or both of result and error", rec.Body)
		}
		if msg.Error != nil && msg.Error.Code == ext.CodeInternalError {
			t.Fatalf("internal error for %q: %s", body, rec.Body)
		}
		var sent struct{ ID json.RawMessage }
		json.Unmarshal([]byte(body), &sent)
		if string(msg.ID) != "null" && string(msg.ID) != string(sent.ID) {
			t.Fatalf("answer to %q carries id %s, not the request's", body, msg.ID)
		}
	})
}
