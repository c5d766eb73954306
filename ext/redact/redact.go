// Package redact takes secrets out of text that another server wrote and
// that this process passes on: the body of an error, a log line, a
// forwarded result. It is the one redaction of mcpsearch: the gateway's
// upstream client (ext/upstream), the hosted embeddings client
// (ext/embed) and the drafting of requests (infra/requests) use it. It
// imports the standard library only.
//
// A [Redactor] replaces secrets in the spellings an error may carry them
// (as they are, quoted by Go, escaped by JSON, URL-escaped) and, through a
// [Matcher], in the forms a careless or hostile server may repeat them in:
// any letter case, spaced out, truncated, and rewritten by any one or two
// of these transforms, one after the other: reversed, hex, base64 (both
// alphabets, at any alignment inside a longer encoded text), every byte
// %XX-escaped, every character \u-escaped (JSON) or \x-escaped, and URL
// query or path escaping. So base64 of base64, hex of reversed, base64 of
// reversed, reversed hex, \u-escaped base64 or %XX of hex are all found.
//
// What it cannot find: three transforms or more in a row, other encodings
// (base32, ROT13, a hash, compression, encryption), a mixture of escaped
// and plain characters with no plain run of 8 bytes, characters other
// than white space between the characters, pieces shorter than 8 bytes of
// the secret, and a secret split across separate texts. A server that
// means to leak a credential it holds can; give servers credentials
// scoped to what their callers may see.
//
// The cost is bounded and linear: text that holds no secret is read once,
// a word of 8 bytes at a time, without allocating; text that does is
// folded once more and each match grows from where it was found (see
// [Matcher]).
package redact

import (
	"cmp"
	"encoding/json"
	"net/url"
	"slices"
	"strconv"
	"strings"
)

// Redacted replaces a secret.
const Redacted = "[redacted]"

// MinLen is the length of the shortest value a Redactor replaces as
// spelled: shorter values (flags such as "1" or "on") cannot hide a
// credential, and replacing them would garble every number in a message.
const MinLen = 4

// Redactor replaces values in text, in every spelling an error may carry
// them (as they are, quoted by Go as %q, exec and url errors quote, escaped
// by JSON, also with non-ASCII characters escaped, and URL-escaped as a URL
// prints its query) and, for values of at least MinFormLen bytes, in the
// forms a [Matcher] finds. A nil *Redactor replaces nothing. It is safe
// for concurrent use.
type Redactor struct {
	spelled *strings.Replacer
	forms   *Matcher
}

// New returns the Redactor of values, or nil when none is MinLen bytes
// long.
func New(values ...string) *Redactor {
	olds := spellings(values)
	if len(olds) == 0 {
		return nil
	}
	pairs := make([]string, 0, 2*len(olds))
	for _, s := range olds {
		pairs = append(pairs, s, Redacted)
	}
	return &Redactor{spelled: strings.NewReplacer(pairs...), forms: NewMatcher(values...)}
}

// spellings are the spellings of values of at least MinLen bytes, longest
// first, so that a value holding another is replaced whole.
func spellings(values []string) []string {
	var olds []string
	for _, v := range values {
		if len(v) < MinLen {
			continue
		}
		js, _ := json.Marshal(v)
		goQuoted, ascii := strconv.Quote(v), strconv.QuoteToASCII(v)
		// Quotes stripped: the value may sit inside a longer quoted string.
		olds = append(olds, v, goQuoted[1:len(goQuoted)-1], ascii[1:len(ascii)-1], string(js[1:len(js)-1]),
			url.QueryEscape(v), url.PathEscape(v))
	}
	slices.SortFunc(olds, func(a, b string) int { return cmp.Or(cmp.Compare(len(b), len(a)), strings.Compare(a, b)) })
	return slices.Compact(olds)
}

// Replace returns s with every spelling and form of the values replaced by
// Redacted.
func (r *Redactor) Replace(s string) string {
	if r == nil {
		return s
	}
	return r.forms.Replace(r.spelled.Replace(s))
}
