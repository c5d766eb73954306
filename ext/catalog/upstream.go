package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// The transports of a server file's "upstream" that the gateway can call
// (ext/upstream).
const (
	TransportHTTP  = "streamable-http"
	TransportStdio = "stdio"
)

// Upstream is a server file's "upstream": how the gateway reaches the
// server. The crawler writes it (infra/crawl), the loader checks it
// ([Upstream.Check]) and the gateway expands it and calls it
// (ext/upstream's Config, which holds one): one schema for all three.
type Upstream struct {
	Transport string            `json:"transport"`
	URL       string            `json:"url,omitempty"`
	Headers   map[string]string `json:"headers,omitempty"`
	Command   string            `json:"command,omitempty"`
	Args      []string          `json:"args,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
}

// Check refuses an upstream the gateway could not call: a transport other
// than streamable HTTP or stdio (SSE is not served), a streamable HTTP URL
// that is not http:// or https:// (a scheme written as a ${VAR} is checked
// when a call expands it), a missing url or command. It returns the field
// at fault (under "upstream"); errors never quote the URL, which may hold
// a credential.
func (u *Upstream) Check() (string, error) {
	switch u.Transport {
	case TransportHTTP:
		return checkUpstreamURL(u.URL)
	case TransportStdio:
		if u.Command == "" {
			return "upstream.command", errors.New("missing: a stdio upstream needs a command")
		}
		return "", nil
	case "":
		return "upstream.transport", fmt.Errorf("missing: want %q or %q", TransportHTTP, TransportStdio)
	}
	return "upstream.transport", fmt.Errorf("transport %s is not %q or %q: the gateway calls no other transport", clipName(u.Transport), TransportHTTP, TransportStdio)
}

// IsHTTPURL reports whether url is http:// or https://, in any case.
func IsHTTPURL(url string) bool {
	lower := strings.ToLower(url)
	return strings.HasPrefix(lower, "http://") || strings.HasPrefix(lower, "https://")
}

// ErrHTTPScheme refuses a streamable HTTP URL of another scheme (file://,
// say); it quotes no URL.
var ErrHTTPScheme = errors.New("a streamable-http upstream needs an http:// or https:// URL")

// checkUpstream checks a server file's raw upstream, strictly: as
// [Upstream.Check], and a field of the wrong type or an unknown one is
// refused too, so that a catalog naming an upstream the gateway could not
// call fails to build rather than each call failing later. An absent or
// null upstream is fine: the server is not forwarded to.
func checkUpstream(raw json.RawMessage) (string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return "", nil
	}
	if bytes.TrimSpace(raw)[0] != '{' {
		return "upstream", errors.New(`want an object {"transport": "streamable-http", "url": ...} or {"transport": "stdio", "command": ...}`)
	}
	var u Upstream
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&u); err != nil {
		return "upstream", err
	}
	return u.Check()
}

// checkUpstreamURL checks the scheme of a streamable HTTP upstream's URL.
func checkUpstreamURL(url string) (string, error) {
	if url == "" {
		return "upstream.url", errors.New("missing: a streamable-http upstream needs a url")
	}
	if IsHTTPURL(url) || strings.HasPrefix(url, "${") {
		return "", nil
	}
	return "upstream.url", ErrHTTPScheme
}
