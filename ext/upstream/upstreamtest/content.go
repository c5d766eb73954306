package upstreamtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

// SampleKinds are the kinds of result the tool sample answers (argument
// kind): one of each content type MCP defines beside text, structured
// content, and a result _meta. Each carries annotations, an _meta of its
// own, an integer beyond float64's precision and characters that JSON
// encoders escape differently, so that a gateway that decodes and encodes
// it again can be caught changing it.
var SampleKinds = []string{"image", "audio", "resource", "resource_link", "structured", "meta"}

// bigInt is 2^53+1: a float64 cannot hold it.
const bigInt = "9007199254740993"

func addSampleTool(s *server.MCPServer) {
	s.AddTool(mcp.NewTool("sample", mcp.WithDescription("Answer a sample result of one kind, to test that it passes unchanged"),
		mcp.WithString("kind", mcp.Required(), mcp.Enum(SampleKinds...))),
		func(_ context.Context, r mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return sample(r.GetString("kind", ""))
		})
}

// SampleResult is the result of kind, byte for byte as the test server
// sends it over HTTP (over stdio, as mcp-go encodes it again); nil for an
// unknown kind.
func SampleResult(kind string) json.RawMessage {
	meta := `"_meta":{"example.com/trace":"t-1","example.com/big":` + bigInt + `}`
	annotations := `"annotations":{"audience":["user","assistant"],"priority":0.25,"lastModified":"2026-11-23T10:00:00Z"}`
	content := map[string]string{
		"image":         `{"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png",` + annotations + `,` + meta + `}`,
		"audio":         `{"type":"audio","data":"UklGRg==","mimeType":"audio/wav",` + annotations + `,` + meta + `}`,
		"resource":      `{"type":"resource","resource":{"uri":"memo://readme","mimeType":"text/markdown","text":"<b>R&D</b> \u00fc","_meta":{"example.com/rev":3}},` + annotations + `}`,
		"resource_link": `{"type":"resource_link","uri":"memo://notes/7","name":"note","title":"Note 7","description":"a <linked> note","mimeType":"text/plain","size":` + bigInt + `,` + annotations + `,` + meta + `}`,
	}
	switch kind {
	case "image", "audio", "resource", "resource_link":
		return json.RawMessage(`{"content":[` + content[kind] + `]}`)
	case "structured":
		return json.RawMessage(`{"content":[{"type":"text","text":"{\"count\":` + bigInt + `}"}],"structuredContent":{"count":` + bigInt + `,"items":[{"id":"a<b","ok":true,"ratio":1.5e-7}],"none":null}}`)
	case "meta":
		return json.RawMessage(`{"content":[{"type":"text","text":"with meta"}],` + meta + `}`)
	}
	return nil
}

func sample(kind string) (*mcp.CallToolResult, error) {
	raw := SampleResult(kind)
	if raw == nil {
		return mcp.NewToolResultError(fmt.Sprintf("unknown kind %q", kind)), nil
	}
	return mcp.ParseCallToolResult(&raw)
}

// rawSamples answers a tools/call of sample with SampleResult's bytes, as
// an upstream that is not written with mcp-go would, and hands every
// other request to next.
func rawSamples(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, err := io.ReadAll(r.Body)
		if err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var call struct {
			ID     json.RawMessage
			Method string
			Params struct {
				Name      string
				Arguments struct{ Kind string }
			}
		}
		if json.Unmarshal(body, &call) == nil && call.Method == "tools/call" && call.Params.Name == "sample" {
			if res := SampleResult(call.Params.Arguments.Kind); res != nil {
				w.Header().Set("Content-Type", "application/json")
				fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%s,"result":%s}`, call.ID, res)
				return
			}
		}
		r.Body = io.NopCloser(bytes.NewReader(body))
		next.ServeHTTP(w, r)
	})
}
