package text

import (
	"strings"
	"unicode"

	"github.com/blevesearch/bleve/v2/analysis"
	porterstemmer "github.com/blevesearch/go-porterstemmer"
	"golang.org/x/text/unicode/norm"
)

// nameSplitFilter splits each token that is an identifier — snake_case,
// dotted.names, camelCase, acronyms — into its words, and keeps the whole
// identifier (without separators, in lower case) as a term too, so that
// "getURLs" gives get, urls and geturls, and "host_pool" gives host, pool
// and hostpool. Other tokens pass in lower case. Text reaches the analyser
// in Unicode compatibility form already (Normalize: Index.Search reads the
// query so, and the build an item's text), since the form decides where
// words break (Ｓ３ is one word, S3).
type nameSplitFilter struct{}

func (nameSplitFilter) Filter(input analysis.TokenStream) analysis.TokenStream {
	out := make(analysis.TokenStream, 0, len(input))
	for _, tok := range input {
		term := string(tok.Term)
		words := SplitName(term)
		if len(words) <= 1 {
			tok.Term = []byte(strings.ToLower(term))
			out = append(out, tok)
			continue
		}
		for _, w := range words {
			out = append(out, &analysis.Token{Term: []byte(w), Start: tok.Start, End: tok.End, Position: tok.Position, Type: tok.Type})
		}
		whole := strings.Join(words, "")
		out = append(out, &analysis.Token{Term: []byte(whole), Start: tok.Start, End: tok.End, Position: tok.Position, Type: tok.Type})
	}
	return out
}

// SplitName splits an identifier into lower-case words:
//
//	snake_case, kebab-case, dotted.name  → split at the separators
//	getURLs                              → get, urls (a plural acronym stays whole)
//	HTTPServerConfig                     → http, server, config
//	ec2, s3Bucket                        → ec2; s3, bucket (digits stay with their letters)
func SplitName(s string) []string {
	var words []string
	for _, part := range strings.FieldsFunc(s, isNameSeparator) {
		words = append(words, splitCamel(part)...)
	}
	return words
}

func isNameSeparator(r rune) bool {
	return r == '_' || r == '-' || r == '.' || r == '/' || r == ':' || unicode.IsSpace(r)
}

// splitCamel splits one separator-free part at its case changes.
func splitCamel(part string) []string {
	runes := []rune(part)
	var words []string
	start := 0
	for i := 1; i < len(runes); i++ {
		if camelBoundary(runes, i) {
			words = append(words, strings.ToLower(string(runes[start:i])))
			start = i
		}
	}
	return append(words, strings.ToLower(string(runes[start:])))
}

// camelBoundary reports whether a new word starts at runes[i].
func camelBoundary(r []rune, i int) bool {
	prev, cur := r[i-1], r[i]
	switch {
	case unicode.IsLower(prev) && unicode.IsUpper(cur):
		return true // getURL: get|URL
	case unicode.IsDigit(prev) && unicode.IsLetter(cur):
		return unicode.IsUpper(cur) // s3Bucket: s3|Bucket; but 2fa, v2beta stay
	case unicode.IsUpper(prev) && unicode.IsUpper(cur) && i+1 < len(r) && unicode.IsLower(r[i+1]):
		// HTTPServer: HTTP|Server — unless the lower case is a plural s
		// ending the acronym: URLs.
		return !(r[i+1] == 's' && (i+2 == len(r) || !unicode.IsLower(r[i+2])))
	}
	return false
}

// NormalizeName lower-cases s and drops everything but letters and digits,
// so "Browser_Take-Screenshot" and "browser take screenshot" compare equal:
// the form of an item's own name in its exact-name field, and of a query
// that may be one. s is read in compatibility form first, as a query is
// (Normalize): "ｆｅｔｃｈ" is fetch, and an accent written apart is kept.
func NormalizeName(s string) string {
	if !norm.NFKC.IsNormalString(s) {
		s = norm.NFKC.String(s)
	}
	var b strings.Builder
	for _, r := range strings.ToLower(s) {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			b.WriteRune(r)
		}
	}
	return b.String()
}

// Stem returns the Porter stem of a lower-case word, as the analyzer
// stems it.
func Stem(w string) string { return string(porterstemmer.StemWithoutLowerCasing([]rune(w))) }
