package upstream

import (
	"context"
	"fmt"
	"log/slog"
	"slices"
	"strings"
	"sync"

	"github.com/mcpsearch/mcpsearch/ext/redact"
)

// Redacted replaces a configured value in errors and logs.
const Redacted = redact.Redacted

// redactor replaces configured values in errors and logs, in every
// spelling and form a redact.Redactor knows; results finds the secrets
// among them in the results an upstream answers (see
// [Config.RedactResult]).
type redactor struct {
	values  *redact.Redactor
	results *redact.Matcher
}

// newRedactor redacts values from errors and logs, and secrets (some of
// values) from results; nil when there is nothing to redact. Expand runs
// at every call and a redactor takes a few milliseconds to make, so the
// last ones made are kept (see redactors).
func newRedactor(values, secrets []string) *redactor {
	key := redactorKey(values, secrets)
	if r, ok := redactors.get(key); ok {
		return r
	}
	r := &redactor{values: redact.New(values...), results: redact.NewMatcher(secrets...)}
	if r.values == nil && r.results == nil {
		r = nil
	}
	redactors.put(key, r)
	return r
}

// redactorKey names the redactor of values and secrets, whatever their
// order (Expand lists header values in map order).
func redactorKey(values, secrets []string) string {
	var b strings.Builder
	for _, list := range [][]string{values, secrets} {
		sorted := slices.Sorted(slices.Values(list))
		fmt.Fprintf(&b, "%d;", len(sorted))
		for _, v := range sorted {
			fmt.Fprintf(&b, "%d:%s", len(v), v) // each value's length first: no value can pass for two
		}
	}
	return b.String()
}

// maxRedactors bounds the redactors kept: one per upstream and set of
// credentials in use; past it they are all dropped and made anew.
const maxRedactors = 256

// redactors are the redactors made last, by redactorKey.
var redactors = &redactorCache{m: map[string]*redactor{}}

type redactorCache struct {
	mu sync.Mutex
	m  map[string]*redactor
}

func (c *redactorCache) get(key string) (*redactor, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	r, ok := c.m[key]
	return r, ok
}

func (c *redactorCache) put(key string, r *redactor) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.m) >= maxRedactors {
		clear(c.m)
	}
	c.m[key] = r
}

func (r *redactor) replace(s string) string {
	if r == nil {
		return s
	}
	return r.values.Replace(s)
}

// redactingHandler passes log records to inner with the configured values
// of cfg redacted from the message and from every attribute. mcp-go's
// transports log through it (their errors can hold the URL). A nil inner
// drops every record.
type redactingHandler struct {
	inner slog.Handler
	cfg   *Config
}

func newRedactingLogger(inner *slog.Logger, cfg *Config) *slog.Logger {
	var h slog.Handler
	if inner != nil {
		h = inner.Handler()
	}
	return slog.New(&redactingHandler{inner: h, cfg: cfg})
}

func (h *redactingHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return h.inner != nil && h.inner.Enabled(ctx, l)
}

func (h *redactingHandler) Handle(ctx context.Context, r slog.Record) error {
	out := slog.NewRecord(r.Time, r.Level, h.cfg.Redact(r.Message), r.PC)
	r.Attrs(func(a slog.Attr) bool {
		out.AddAttrs(h.redactAttr(a))
		return true
	})
	return h.inner.Handle(ctx, out)
}

func (h *redactingHandler) redactAttr(a slog.Attr) slog.Attr {
	v := a.Value.Resolve()
	if v.Kind() == slog.KindGroup {
		attrs := v.Group()
		out := make([]any, len(attrs))
		for i, g := range attrs {
			out[i] = h.redactAttr(g)
		}
		return slog.Group(a.Key, out...)
	}
	return slog.String(a.Key, h.cfg.Redact(v.String()))
}

func (h *redactingHandler) WithAttrs(attrs []slog.Attr) slog.Handler {
	if h.inner == nil {
		return h
	}
	out := make([]slog.Attr, len(attrs))
	for i, a := range attrs {
		out[i] = h.redactAttr(a)
	}
	return &redactingHandler{inner: h.inner.WithAttrs(out), cfg: h.cfg}
}

func (h *redactingHandler) WithGroup(name string) slog.Handler {
	if h.inner == nil {
		return h
	}
	return &redactingHandler{inner: h.inner.WithGroup(name), cfg: h.cfg}
}
