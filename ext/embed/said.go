package embed

import (
	"fmt"
	"net/http"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"github.com/mcpsearch/mcpsearch/ext/redact"
)

// credentialHeaders are the headers of a call whose values are taken out
// of what an endpoint answered, whoever set them: the API key
// (Authorization: Bearer), a SigV4 signature and session token, or a key
// a caller's Prepare put in another header.
var credentialHeaders = []string{"Authorization", "Proxy-Authorization", "X-Api-Key", "Api-Key", "X-Amz-Security-Token", "Cookie"}

// sentCredentials are the values of the credential headers of req, each
// whole, its token after the scheme ("Bearer KEY": KEY), and each part of
// that token (SigV4's Credential=…, Signature=…: each value); and the
// password of its URL, which http.Client sends as Basic credentials when
// no header does.
func sentCredentials(req *http.Request) []string {
	var out []string
	if pass, ok := req.URL.User.Password(); ok {
		out = append(out, pass, req.URL.User.Username()+":"+pass)
	}
	for _, k := range credentialHeaders {
		for _, v := range req.Header.Values(k) {
			out = append(out, v)
			_, token, ok := strings.Cut(v, " ")
			if !ok {
				continue
			}
			out = append(out, token)
			for part := range strings.SplitSeq(token, ",") {
				if _, value, ok := strings.Cut(strings.TrimSpace(part), "="); ok {
					out = append(out, value)
				}
			}
		}
	}
	return out
}

// maxSaidBytes bounds what is read of a refusal's body, its white space
// collapsed, to redact it and quote its start: enough for a credential
// rewritten twice (12 bytes a byte, for \u escapes of hex) that begins
// within what is quoted.
const maxSaidBytes = 16 << 10

// said is what the error of a refusal quotes of a: the start of its body,
// on one line, with the credentials the try sent (and what redact takes
// out) redacted and control characters made visible (see Snippet).
func (a answer) said(extra func(string) string) string {
	s := strings.Join(strings.Fields(string(a.body[:min(len(a.body), maxSaidBytes)])), " ")
	s = sentRedactor(a.sent).Replace(s)
	if extra != nil {
		s = extra(s)
	}
	return Snippet([]byte(s))
}

// sentRedactor is the redactor of the credentials a try sent; the last
// one made is kept, since every try of a call, and every call of a
// client, sends the same.
func sentRedactor(sent []string) *redact.Redactor {
	key := strings.Join(sent, "\x00")
	lastRedactor.Lock()
	defer lastRedactor.Unlock()
	if lastRedactor.r == nil || lastRedactor.key != key {
		lastRedactor.key, lastRedactor.r = key, redact.New(sent...)
	}
	return lastRedactor.r
}

var lastRedactor struct {
	sync.Mutex
	key string
	r   *redact.Redactor
}

// Snippet is the start of a body as an error quotes it: on one line (its
// white space collapsed), at most errorSnippetBytes long, with every
// control or formatting character (an escape sequence's ESC, a carriage
// return, a bidirectional override) and every byte that is not UTF-8
// written as an escape (\x1b, \u202e), so that an error printed on a
// terminal shows what the endpoint said and cannot make the terminal do
// anything.
func Snippet(body []byte) string {
	s := strings.Join(strings.Fields(string(body)), " ")
	if s == "" {
		return "(no body)"
	}
	var out strings.Builder
	for i, r := range s {
		piece := visible(s, i, r)
		if out.Len()+len(piece) > errorSnippetBytes {
			out.WriteString("…")
			break
		}
		out.WriteString(piece)
	}
	return out.String()
}

// visible is the character r at s[i] as Snippet writes it.
func visible(s string, i int, r rune) string {
	switch {
	case r == utf8.RuneError && !strings.HasPrefix(s[i:], "\uFFFD"):
		return fmt.Sprintf(`\x%02x`, s[i])
	case r < 0x80 && (r < 0x20 || r == 0x7f):
		return fmt.Sprintf(`\x%02x`, r)
	case r > 0xFFFF && unicode.Is(unicode.Cf, r):
		return fmt.Sprintf(`\U%08x`, r)
	case unicode.IsControl(r) || unicode.Is(unicode.Cf, r):
		return fmt.Sprintf(`\u%04x`, r)
	}
	return s[i : i+utf8.RuneLen(r)]
}
