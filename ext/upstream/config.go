package upstream

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"slices"

	"github.com/mark3labs/mcp-go/client/transport"
)

// Config is the "upstream" object of a catalog server file. The crawler
// writes it (infra/crawl) and the gateway reads it; both expand it and
// start its transport here.
type Config struct {
	Transport string            `json:"transport"`
	URL       string            `json:"url,omitempty"`
	Headers   map[string]string `json:"headers,omitempty"`
	Command   string            `json:"command,omitempty"`
	Args      []string          `json:"args,omitempty"`
	Env       map[string]string `json:"env,omitempty"`
}

// ParseConfig decodes and checks an upstream object.
func ParseConfig(raw json.RawMessage) (*Config, error) {
	var cfg Config
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return nil, fmt.Errorf("catalog upstream is not a valid object: %w", err)
	}
	switch cfg.Transport {
	case TransportHTTP:
		if cfg.URL == "" {
			return nil, errors.New("catalog upstream: streamable-http needs a url")
		}
	case TransportStdio:
		if cfg.Command == "" {
			return nil, errors.New("catalog upstream: stdio needs a command")
		}
	default:
		return nil, fmt.Errorf("catalog upstream: transport %q is not %q or %q", cfg.Transport, TransportHTTP, TransportStdio)
	}
	return &cfg, nil
}

// UnsetVarError is a ${VAR} reference to a variable that is not set.
type UnsetVarError struct {
	Field string // where the reference is: url, command, args[1], headers.Authorization, env.API_KEY
	Var   string
}

func (e *UnsetVarError) Error() string {
	return fmt.Sprintf("%s: environment variable %s is not set", e.Field, e.Var)
}

var varRE = regexp.MustCompile(`\$\{([A-Za-z_][A-Za-z0-9_]*)\}`)

// Expand returns a copy of cfg with every ${VAR} reference resolved by
// lookup. A reference to an unset variable is an *UnsetVarError, the first
// in the order url, command, args, headers, env (map keys sorted), so the
// variable named is always the same; it never holds a value.
func (cfg *Config) Expand(lookup func(name string) (string, bool)) (*Config, error) {
	var unset *UnsetVarError
	sub := func(field, s string) string {
		return varRE.ReplaceAllStringFunc(s, func(ref string) string {
			name := varRE.FindStringSubmatch(ref)[1]
			v, ok := lookup(name)
			if !ok && unset == nil {
				unset = &UnsetVarError{Field: field, Var: name}
			}
			return v
		})
	}
	out := &Config{Transport: cfg.Transport, URL: sub("url", cfg.URL), Command: sub("command", cfg.Command)}
	for i, a := range cfg.Args {
		out.Args = append(out.Args, sub(fmt.Sprintf("args[%d]", i), a))
	}
	out.Headers = subMap(cfg.Headers, "headers", sub)
	out.Env = subMap(cfg.Env, "env", sub)
	if unset != nil {
		return nil, unset
	}
	return out, nil
}

func subMap(m map[string]string, field string, sub func(field, s string) string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for _, k := range sortedKeys(m) {
		out[k] = sub(field+"."+k, m[k])
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}

// NewTransport returns the mcp-go transport of an expanded cfg: streamable
// HTTP with its headers, through httpClient unless it is nil, or a stdio
// process with its environment (started when the client starts).
func (cfg *Config) NewTransport(httpClient *http.Client) (transport.Interface, error) {
	if cfg.Transport == TransportStdio {
		env := make([]string, 0, len(cfg.Env))
		for _, k := range sortedKeys(cfg.Env) {
			env = append(env, k+"="+cfg.Env[k])
		}
		return transport.NewStdio(cfg.Command, env, cfg.Args...), nil
	}
	opts := []transport.StreamableHTTPCOption{transport.WithHTTPHeaders(cfg.Headers)}
	if httpClient != nil {
		opts = append(opts, transport.WithHTTPBasicClient(httpClient))
	}
	tr, err := transport.NewStreamableHTTP(cfg.URL, opts...)
	if err != nil {
		return nil, fmt.Errorf("connecting: %w", err)
	}
	return tr, nil
}
