package upstream

import (
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"regexp"
	"slices"

	"github.com/mark3labs/mcp-go/client/transport"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// Config is the "upstream" object of a catalog server file, in the
// catalog's schema ([catalog.Upstream]: the crawler writes it, the loader
// checks it), with what expanding it learnt: both the crawler and the
// gateway expand it and start its transport here.
type Config struct {
	catalog.Upstream

	redact *redactor // set by Expand: the values to keep out of errors and logs
}

// ParseConfig decodes an upstream object and checks it by the catalog's
// rules ([catalog.Upstream.Check]), leniently: unknown fields, which the
// loader refuses when a catalog builds, are ignored here.
func ParseConfig(raw json.RawMessage) (*Config, error) {
	var cfg Config
	if err := json.Unmarshal(raw, &cfg); err != nil {
		return nil, fmt.Errorf("catalog upstream is not a valid object: %w", err)
	}
	if _, err := cfg.Check(); err != nil {
		return nil, fmt.Errorf("catalog upstream: %w", err)
	}
	return &cfg, nil
}

// errHTTPScheme refuses a streamable HTTP URL of another scheme (file://,
// say); it quotes no URL, which may hold a credential. The catalog loader
// refuses the same when a catalog builds; a scheme written as a ${VAR} is
// checked here once expanded.
var errHTTPScheme = fmt.Errorf("catalog upstream: %w", catalog.ErrHTTPScheme)

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
// variable named is always the same; it never holds a value. The copy
// remembers the values it holds (see [Config.Redact]).
func (cfg *Config) Expand(lookup func(name string) (string, bool)) (*Config, error) {
	var unset *UnsetVarError
	var values []string
	sub := func(field, s string) string {
		return varRE.ReplaceAllStringFunc(s, func(ref string) string {
			name := varRE.FindStringSubmatch(ref)[1]
			v, ok := lookup(name)
			if !ok && unset == nil {
				unset = &UnsetVarError{Field: field, Var: name}
			}
			values = append(values, v)
			return v
		})
	}
	out := &Config{Upstream: catalog.Upstream{Transport: cfg.Transport, URL: sub("url", cfg.URL), Command: sub("command", cfg.Command)}}
	for i, a := range cfg.Args {
		out.Args = append(out.Args, sub(fmt.Sprintf("args[%d]", i), a))
	}
	out.Headers = subMap(cfg.Headers, "headers", sub)
	out.Env = subMap(cfg.Env, "env", sub)
	if unset != nil {
		return nil, unset
	}
	secrets := slices.Clone(values)
	for k, v := range out.Headers {
		values = append(values, v)
		if varRE.MatchString(cfg.Headers[k]) {
			secrets = append(secrets, v)
		}
	}
	out.redact = newRedactor(values, secrets)
	return out, nil
}

// Redact returns s with every value that Expand put into cfg removed: the
// value of each ${VAR} reference and each header value (credentials, even
// when written literally), in the spellings an error may carry them and,
// for values of 8 bytes or more, in the transformed forms of a
// redact.Matcher (see package redact). On a Config that was not expanded it
// returns s unchanged. Every error and log line about an upstream passes
// through it.
func (cfg *Config) Redact(s string) string { return cfg.redact.replace(s) }

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

// TransportOptions configure the transport of an upstream. A nil
// *TransportOptions means the defaults.
type TransportOptions struct {
	// HTTPClient sends the requests of a streamable HTTP upstream. If nil,
	// http.DefaultClient. It is copied: its Transport is wrapped to bound
	// each response body, and its CheckRedirect replaced by
	// redirect.SameOrigin (a redirect to another origin fails the call).
	HTTPClient *http.Client
	// MaxMessageBytes bounds what is read of one message from the upstream:
	// one HTTP response body, or one line of a stdio process. Past it the
	// request fails with a *TooLargeError. If zero, DefaultMaxMessageBytes.
	MaxMessageBytes int64
	// Logger receives the transport's own log lines (mcp-go's), with the
	// configured values redacted. If nil, they are dropped.
	Logger *slog.Logger
}

// NewTransport returns the transport of an expanded cfg: streamable HTTP
// with its headers, or a stdio process with its environment (started when
// the client starts). Either reads at most o.MaxMessageBytes of a message
// and reports its failures as one cause (see [Config.Failure]).
func (cfg *Config) NewTransport(o *TransportOptions) (transport.Interface, error) {
	var opts TransportOptions
	if o != nil {
		opts = *o
	}
	if opts.MaxMessageBytes <= 0 {
		opts.MaxMessageBytes = DefaultMaxMessageBytes
	}
	logger := newRedactingLogger(opts.Logger, cfg)
	if cfg.Transport == TransportStdio {
		return &stdioTransport{cfg: cfg, max: opts.MaxMessageBytes, logger: logger}, nil
	}
	tr, err := newHTTPTransport(cfg, opts.HTTPClient, opts.MaxMessageBytes, logger)
	if err != nil {
		return nil, err
	}
	return tr, nil
}
