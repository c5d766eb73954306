package upstream

import (
	"cmp"
	"context"
	"encoding/json"
	"log/slog"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Redacted replaces a configured value in errors and logs.
const Redacted = "[redacted]"

// minRedactLen is the shortest value redacted: shorter values (flags such
// as "1" or "on") cannot hide a credential, and replacing them would
// garble every number in a message.
const minRedactLen = 4

// redactor replaces configured values in text, in every spelling an error
// may carry them: as they are, quoted by Go (%q, as exec and url errors
// quote), escaped by JSON (also with non-ASCII characters escaped, as some
// encoders do), and URL-escaped (as a URL prints its query); and, for
// values of at least minFormLen bytes, in the forms a formMatcher knows.
// results finds the secrets among them in the results an upstream
// answers (see [Config.RedactResult]).
type redactor struct {
	r       *strings.Replacer
	forms   *formMatcher
	results *formMatcher
}

// newRedactor redacts values from errors and logs, and secrets (some of
// values) from results.
func newRedactor(values, secrets []string) *redactor {
	var olds []string
	for _, v := range values {
		if len(v) < minRedactLen {
			continue
		}
		js, _ := json.Marshal(v)
		goQuoted, ascii := strconv.Quote(v), strconv.QuoteToASCII(v)
		// Quotes stripped: the value may sit inside a longer quoted string.
		olds = append(olds, v, goQuoted[1:len(goQuoted)-1], ascii[1:len(ascii)-1], string(js[1:len(js)-1]),
			url.QueryEscape(v), url.PathEscape(v))
	}
	if len(olds) == 0 {
		return nil
	}
	// Longest first, so that a value holding another is replaced whole.
	slices.SortFunc(olds, func(a, b string) int { return cmp.Compare(len(b), len(a)) })
	olds = slices.Compact(olds)
	pairs := make([]string, 0, 2*len(olds))
	for _, s := range olds {
		pairs = append(pairs, s, Redacted)
	}
	return &redactor{r: strings.NewReplacer(pairs...), forms: newFormMatcher(values), results: newFormMatcher(secrets)}
}

func (r *redactor) replace(s string) string {
	if r == nil {
		return s
	}
	return r.forms.replace(r.r.Replace(s))
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
