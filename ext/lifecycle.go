package ext

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strconv"

	"github.com/mark3labs/mcp-go/mcp"
)

// serveLifecycle hands a message the extension does not answer to mcp-go.
// The results of initialize and server/discover are extended with the
// search capability on their way out.
func (s *Server) serveLifecycle(w http.ResponseWriter, r *http.Request, req *request, body []byte) {
	r2 := r.Clone(r.Context())
	r2.Body = http.NoBody
	if len(body) > 0 {
		r2.Body = readCloser{bytes.NewReader(body)}
	}
	r2.ContentLength = int64(len(body))
	if req.Method != string(mcp.MethodInitialize) && req.Method != string(mcp.MethodServerDiscover) {
		s.lifecycle.ServeHTTP(w, r2)
		return
	}
	rec := &bufferedWriter{header: http.Header{}, status: http.StatusOK}
	s.lifecycle.ServeHTTP(rec, r2)
	out := rec.body.Bytes()
	if rec.status == http.StatusOK {
		out = s.advertiseSearch(out)
	}
	for k, v := range rec.header {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(out)))
	w.WriteHeader(rec.status)
	w.Write(out)
}

type readCloser struct{ *bytes.Reader }

func (readCloser) Close() error { return nil }

// bufferedWriter records a response in memory.
type bufferedWriter struct {
	header http.Header
	status int
	body   bytes.Buffer
	wrote  bool
}

func (b *bufferedWriter) Header() http.Header { return b.header }
func (b *bufferedWriter) Write(p []byte) (int, error) {
	b.wrote = true
	return b.body.Write(p)
}
func (b *bufferedWriter) WriteHeader(status int) {
	if !b.wrote {
		b.status, b.wrote = status, true
	}
}

// advertiseSearch adds "search": true to the tools, prompts and resources
// capabilities of an initialize or server/discover response. A body it
// cannot read (an error response, say) passes unchanged.
func (s *Server) advertiseSearch(body []byte) []byte {
	var msg map[string]json.RawMessage
	if json.Unmarshal(body, &msg) != nil || msg["result"] == nil {
		return body
	}
	var result map[string]json.RawMessage
	if json.Unmarshal(msg["result"], &result) != nil {
		return body
	}
	var caps map[string]json.RawMessage
	if json.Unmarshal(result["capabilities"], &caps) != nil {
		return body
	}
	for _, name := range []string{"tools", "prompts", "resources"} {
		caps[name] = withSearch(caps[name], name == "tools")
	}
	var err error
	if result["capabilities"], err = json.Marshal(caps); err != nil {
		return body
	}
	if msg["result"], err = json.Marshal(result); err != nil {
		return body
	}
	out, err := json.Marshal(msg)
	if err != nil {
		return body
	}
	return append(out, '\n')
}

func withSearch(raw json.RawMessage, listChanged bool) json.RawMessage {
	c := map[string]any{}
	if len(raw) > 0 {
		json.Unmarshal(raw, &c)
	}
	c["search"] = true
	if listChanged {
		c["listChanged"] = false
	}
	out, _ := json.Marshal(c)
	return out
}
