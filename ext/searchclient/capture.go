package searchclient

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"sync"
)

// capsRecorder is the HTTP transport of a client made by Connect: it keeps
// the capabilities of the initialize or server/discover answer as they
// came over the wire, because mcp-go's typed capabilities drop the
// tools.search, prompts.search and resources.search flags.
type capsRecorder struct {
	base http.RoundTripper
	mu   sync.Mutex
	caps map[string]struct {
		Search bool `json:"search"`
	}
}

func (r *capsRecorder) RoundTrip(req *http.Request) (*http.Response, error) {
	if !isHandshake(req) {
		return r.base.RoundTrip(req)
	}
	resp, err := r.base.RoundTrip(req)
	if err != nil || resp.StatusCode != http.StatusOK || !strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		return resp, err
	}
	body, err := io.ReadAll(resp.Body)
	resp.Body.Close()
	if err != nil {
		return nil, err
	}
	resp.Body = io.NopCloser(bytes.NewReader(body))
	r.record(body)
	return resp, nil
}

// isHandshake reports whether req carries initialize or server/discover,
// leaving its body readable.
func isHandshake(req *http.Request) bool {
	if req.Body == nil || req.Method != http.MethodPost {
		return false
	}
	body, err := io.ReadAll(req.Body)
	req.Body.Close()
	req.Body = io.NopCloser(bytes.NewReader(body))
	if err != nil {
		return false
	}
	var msg struct{ Method string }
	json.Unmarshal(body, &msg)
	return msg.Method == "initialize" || msg.Method == "server/discover"
}

func (r *capsRecorder) record(body []byte) {
	var msg struct {
		Result struct {
			Capabilities map[string]json.RawMessage `json:"capabilities"`
		} `json:"result"`
	}
	if json.Unmarshal(body, &msg) != nil || msg.Result.Capabilities == nil {
		return
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.caps = map[string]struct {
		Search bool `json:"search"`
	}{}
	for _, name := range []string{"tools", "prompts", "resources"} {
		var c struct {
			Search bool `json:"search"`
		}
		json.Unmarshal(msg.Result.Capabilities[name], &c)
		r.caps[name] = c
	}
}

// searchFlags returns the search methods the recorded capabilities flag:
// tools.search → tools/search, prompts.search → prompts/search,
// resources.search → resources/search.
func (r *capsRecorder) searchFlags() map[string]bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := map[string]bool{}
	for name, c := range r.caps {
		if c.Search {
			out[name+"/search"] = true
		}
	}
	return out
}
