package server

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"

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

// FuzzScanMessage: the scan agrees with encoding/json on what is JSON (a
// body it accepts is valid, one it calls malformed is not), and the
// top-level members it returns are those json.Unmarshal finds.
func FuzzScanMessage(f *testing.F) {
	for _, seed := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"ping","params":{"_meta":{"a":[1,2.5e-3,true,null,"\u00e9\"\\"]}}}`,
		`{"a":1,"\u0061":2}`, `[1,[2,[3]]]`, `-0.0e+1`, `"\ud800"`, `{"a":01}`, `{"a":1,}`, `[1 2]`, "\"\x01\"", `tru`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body string) {
		top, err := scanMessage([]byte(body))
		valid := json.Valid([]byte(body))
		switch {
		case err == nil && !valid:
			t.Fatalf("scan accepts %q, which is not JSON", body)
		case errors.Is(err, ext.ErrParse) && valid:
			t.Fatalf("scan calls %q malformed (%v), which is JSON", body, err)
		case err != nil:
			return
		}
		var members map[string]json.RawMessage
		if json.Unmarshal([]byte(body), &members) != nil {
			return // not an object
		}
		if len(top) != len(members) {
			t.Fatalf("%q: scan found %d members, json %d", body, len(top), len(members))
		}
		for _, m := range top {
			if string(members[m.name]) != string(m.value) {
				t.Fatalf("%q: member %q is %s to the scan, %s to json", body, m.name, m.value, members[m.name])
			}
		}
	})
}

// FuzzPrunedDecoding: decoding the pruned params of a lifecycle request
// fails exactly when decoding the whole request would (decodeAs refuses
// what mcp-go refuses, without decoding what it ignores).
func FuzzPrunedDecoding(f *testing.F) {
	for _, seed := range []string{
		`{"protocolVersion":"2025-06-18","capabilities":{"experimental":{"a":[1,2]},"roots":{"listChanged":true}},"clientInfo":{"name":"c","version":"1"},"_meta":{"x":1}}`,
		`{"capabilities":{"roots":{"listChanged":"yes"}}}`, `{"capabilities":{"experimental":5}}`, `{"_meta":[1]}`,
		`{"protocolVersion":5}`, `{"uri":"file:///a","_meta":{"progressToken":"t"}}`, `{"Capabilities":{"Sampling":{}}}`,
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, params string) {
		if _, err := scanMessage([]byte(params)); err != nil || !strings.HasPrefix(strings.TrimSpace(params), "{") {
			return
		}
		for _, v := range []func() any{
			func() any { return new(mcp.InitializeRequest) }, func() any { return new(mcp.PingRequest) },
			func() any { return new(mcp.SubscribeRequest) }, func() any { return new(mcp.DiscoverRequest) },
		} {
			whole := json.Unmarshal([]byte(`{"method":"m","params":`+params+`}`), v())
			pruned := (&request{Method: "m", Params: json.RawMessage(params)}).decodeAs(v())
			if (whole == nil) != (pruned == nil) {
				t.Fatalf("%T of params %s: whole decoding gives %v, pruned %v", v(), params, whole, pruned)
			}
		}
	})
}
