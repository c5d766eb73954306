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
//
// mcp-go decodes a request id into a float64, which changes integers past
// 2^53 and respells others (1e3 comes back as 1000), so it sees a stand-in
// id and the response gets the client's id back exactly as it was sent.
func (s *Server) serveLifecycle(w http.ResponseWriter, r *http.Request, req *request, body []byte) {
	if !req.isNotification() {
		body = withID(body, standInID)
	}
	r2 := r.Clone(r.Context())
	r2.Body = readCloser{bytes.NewReader(body)}
	r2.ContentLength = int64(len(body))
	rec := &bufferedWriter{header: http.Header{}, status: http.StatusOK}
	s.lifecycle.ServeHTTP(rec, r2)
	out := rec.body.Bytes()
	if !req.isNotification() {
		advertise := rec.status == http.StatusOK &&
			(req.Method == string(mcp.MethodInitialize) || req.Method == string(mcp.MethodServerDiscover))
		out = s.answerOf(out, req.ID, advertise)
	}
	for k, v := range rec.header {
		w.Header()[k] = v
	}
	w.Header().Set("Content-Length", strconv.Itoa(len(out)))
	w.WriteHeader(rec.status)
	w.Write(out)
}

// standInID is the id mcp-go sees: one it keeps exactly.
const standInID = `0`

// withID returns the message body with its id replaced by id.
func withID(body []byte, id string) []byte {
	var members map[string]json.RawMessage
	if json.Unmarshal(body, &members) != nil {
		return body // parseRequest decoded it already: not reached
	}
	members["id"] = json.RawMessage(id)
	out, err := json.Marshal(members)
	if err != nil {
		return body
	}
	return out
}

// rawResponse is a JSON-RPC response whose members are kept as sent.
type rawResponse struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  json.RawMessage `json:"result,omitempty"`
	Error   json.RawMessage `json:"error,omitempty"`
}

// answerOf gives mcp-go's response to a request the request's own id and,
// if advertise is set, the search capability. A body that is not a
// JSON-RPC response (mcp-go answers some refusals in plain text) passes
// unchanged.
func (s *Server) answerOf(body []byte, id json.RawMessage, advertise bool) []byte {
	var msg rawResponse
	if json.Unmarshal(body, &msg) != nil || msg.JSONRPC == "" {
		return body
	}
	if string(msg.ID) == standInID {
		msg.ID = id
	}
	if advertise && msg.Result != nil {
		msg.Result = s.advertiseSearch(msg.Result)
	}
	out, err := json.Marshal(msg)
	if err != nil {
		return body
	}
	return append(out, '\n')
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
// capabilities of an initialize or server/discover result. A result it
// cannot read passes unchanged.
func (s *Server) advertiseSearch(result json.RawMessage) json.RawMessage {
	var fields map[string]json.RawMessage
	if json.Unmarshal(result, &fields) != nil {
		return result
	}
	var caps map[string]json.RawMessage
	if json.Unmarshal(fields["capabilities"], &caps) != nil {
		return result
	}
	for _, name := range []string{"tools", "prompts", "resources"} {
		caps[name] = withSearch(caps[name], name == "tools")
	}
	var err error
	if fields["capabilities"], err = json.Marshal(caps); err != nil {
		return result
	}
	out, err := json.Marshal(fields)
	if err != nil {
		return result
	}
	return out
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
