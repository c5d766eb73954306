package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// The transports of a server file's "upstream" that the gateway can call
// (ext/upstream, which this package cannot import: it links an HTTP
// client, and the index links none).
const (
	transportHTTP  = "streamable-http"
	transportStdio = "stdio"
)

// upstreamFile is a server file's "upstream": the fields ext/upstream's
// Config reads, with their types.
type upstreamFile struct {
	Transport string            `json:"transport"`
	URL       string            `json:"url"`
	Headers   map[string]string `json:"headers"`
	Command   string            `json:"command"`
	Args      []string          `json:"args"`
	Env       map[string]string `json:"env"`
}

// checkUpstream refuses an upstream the gateway could not call, so that a
// catalog naming one fails to build rather than each call failing later:
// a transport other than streamable HTTP or stdio (SSE is not served), a
// streamable HTTP URL that is not http:// or https:// (a scheme written as
// a ${VAR} is checked when a call expands it), a missing url or command, a
// field of the wrong type or an unknown one. It returns the field at fault
// (under "upstream"); errors never quote the URL, which may hold a
// credential. An absent or null upstream is fine: the server is not
// forwarded to.
func checkUpstream(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	if bytes.TrimSpace(raw)[0] != '{' {
		return "upstream", errors.New(`want an object {"transport": "streamable-http", "url": ...} or {"transport": "stdio", "command": ...}`)
	}
	var u upstreamFile
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&u); err != nil {
		return "upstream", err
	}
	switch u.Transport {
	case transportHTTP:
		return checkUpstreamURL(u.URL)
	case transportStdio:
		if u.Command == "" {
			return "upstream.command", errors.New("missing: a stdio upstream needs a command")
		}
		return "", nil
	case "":
		return "upstream.transport", fmt.Errorf("missing: want %q or %q", transportHTTP, transportStdio)
	}
	return "upstream.transport", fmt.Errorf("%s is not %q or %q: the gateway calls no other transport", clipName(u.Transport), transportHTTP, transportStdio)
}

// checkUpstreamURL checks the scheme of a streamable HTTP upstream's URL.
func checkUpstreamURL(url string) (string, error) {
	if url == "" {
		return "upstream.url", errors.New("missing: a streamable-http upstream needs a url")
	}
	lower := strings.ToLower(url)
	if strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://") || strings.HasPrefix(url, "${") {
		return "", nil
	}
	return "upstream.url", errors.New("a streamable-http upstream needs an http:// or https:// URL")
}
