package main

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"reflect"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/upstream/upstreamtest"
)

// rawSend delivers one JSON-RPC message and returns the answer's bytes.
type rawSend func(t *testing.T, body []byte) []byte

func (g *gateway) rawViaHTTP(t *testing.T, body []byte) []byte {
	t.Helper()
	resp, err := http.Post(g.srv.URL+"/mcp", "application/json", bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var out bytes.Buffer
	if _, err := out.ReadFrom(resp.Body); err != nil {
		t.Fatal(err)
	}
	return out.Bytes()
}

func (g *gateway) rawViaLambda(t *testing.T, body []byte) []byte {
	t.Helper()
	ev := loadEvent(t, "function-url-event.json")
	ev.Body = string(body)
	delete(ev.Headers, "content-length")
	resp, err := lambdaHandler(g.h)(context.Background(), ev)
	if err != nil {
		t.Fatalf("lambdaHandler: %v", err)
	}
	return []byte(resp.Body)
}

// exactly decodes JSON keeping every number as written.
func exactly(t *testing.T, data []byte) any {
	t.Helper()
	d := json.NewDecoder(bytes.NewReader(data))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		t.Fatalf("%s: %v", data, err)
	}
	return v
}

// forwardedResult is the result of a forwarded call as the upstream sent
// it: the answer's result without the gateway's server entry in _meta
// (and without _meta, if that was all it held).
func forwardedResult(t *testing.T, answer []byte) any {
	t.Helper()
	msg, _ := exactly(t, answer).(map[string]any)
	res, ok := msg["result"].(map[string]any)
	if !ok {
		t.Fatalf("got %s, want a result", answer)
	}
	meta, _ := res["_meta"].(map[string]any)
	if meta[ext.MetaServer] != "gitlab" {
		t.Errorf("got _meta %v, want it to name the server gitlab", meta)
	}
	delete(meta, ext.MetaServer)
	if len(meta) == 0 {
		delete(res, "_meta")
	}
	return res
}

// TestForwardedContentWhole: a result of each content type (image, audio,
// embedded resource, resource link), structured content and a result
// _meta pass through tools/call and meta mode's call_tool as the upstream
// sent them — annotations, _meta of content, integers beyond float64 and
// escaped characters included — over HTTP and through the Lambda adapter.
func TestForwardedContentWhole(t *testing.T) {
	g := mustGateway(t, map[string]string{"MCPSEARCH_LIST_MODE": "meta"})
	for name, do := range map[string]rawSend{"http": g.rawViaHTTP, "lambda": g.rawViaLambda} {
		for _, kind := range upstreamtest.SampleKinds {
			t.Run(name+" "+kind, func(t *testing.T) {
				want := exactly(t, upstreamtest.SampleResult(kind))
				args := map[string]any{"kind": kind}
				for method, params := range map[string]map[string]any{
					"tools/call": {"name": "gitlab__sample", "arguments": args},
					"call_tool":  {"name": "call_tool", "arguments": map[string]any{"name": "gitlab__sample", "arguments": args}},
				} {
					body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})
					if got := forwardedResult(t, do(t, body)); !reflect.DeepEqual(got, want) {
						got, _ := json.Marshal(got)
						t.Errorf("%s: got\n%s\nwant\n%s", method, got, upstreamtest.SampleResult(kind))
					}
				}
			})
		}
	}
}
