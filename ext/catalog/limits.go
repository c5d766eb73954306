package catalog

import (
	"fmt"
	"unicode"
	"unicode/utf8"

	"github.com/mcpsearch/mcpsearch/ext"
)

// Limits on a catalog, checked as it loads (LoadFS, CheckServerFile). The
// character rules are what clients need of the names they are sent; the
// sizes bound what one item, and one server, cost to build and to serve:
// a build's memory grows with the text it analyses (a 50 MB description
// took 2.9 GB and 44 s; an item at the limits takes 89 MB, a 30 MB server
// file of such items 1.0 GB and 13 s, the default catalog's 14 MB 161 MB).
// Each size is several times the largest in the default catalog (a 40 KB
// description, a 246 KB tool, a 4.7 MB server file), so real servers pass.
const (
	// MaxFileBytes bounds one server file of a catalog.
	MaxFileBytes = 32 << 20
	// MaxItemBytes bounds one item's JSON object (compact), inputSchema
	// and annotations included: what tools/list sends for it.
	MaxItemBytes = 1 << 20
	// MaxDescriptionBytes bounds an item's description.
	MaxDescriptionBytes = 256 << 10
	// MaxTextBytes bounds a title, a resource's name and a MIME type.
	MaxTextBytes = 1 << 10
	// MaxNameChars bounds a tool's or prompt's canonical name (server,
	// separator, upstream name): the MCP specification's limit for tool
	// names.
	MaxNameChars = 128
	// MaxURIBytes bounds a resource URI or URI template.
	MaxURIBytes = 2 << 10
	// MaxContentBytes bounds a resource's text in resourceContents (the
	// crawler cuts texts to 64 KiB by default).
	MaxContentBytes = 1 << 20
)

// checkFields applies the limits to the fields of a parsed item; it returns
// the field at fault.
func (p *itemParser) checkFields(it *Item, r *rawItem) (field string, err error) {
	checks := []struct {
		field string
		err   error
	}{
		{"name", p.checkName(it)},
		{"title", checkText(deref(r.Title))},
		{"annotations.title", checkText(it.Title)}, // the title a tool may take from its annotations
		{"description", checkSize(it.Description, MaxDescriptionBytes)},
		{"mimeType", checkText(it.MimeType)},
		{uriField(it.Kind), checkURI(it.URI)},
	}
	for _, c := range checks {
		if c.err != nil {
			return c.field, c.err
		}
	}
	return "", nil
}

func uriField(k ext.Kind) string {
	if k == ext.KindResourceTemplate {
		return "uriTemplate"
	}
	return "uri"
}

// checkName checks an item's own name: a tool's or prompt's as a name
// clients call (and its canonical name's length), a resource's as text.
func (p *itemParser) checkName(it *Item) error {
	if it.Kind != ext.KindTool && it.Kind != ext.KindPrompt {
		return checkText(it.Label)
	}
	if i, r, bad := firstBad(it.Label, nameRune); bad {
		return fmt.Errorf("character %U at byte %d: a name holds no space, control, format or invalid character (MCP asks tool names for A-Z a-z 0-9 _ - .)", r, i)
	}
	if n := utf8.RuneCountInString(p.server + p.sep + it.Label); n > MaxNameChars {
		return fmt.Errorf("the canonical name (server, separator, name) is %d characters, over the limit of %d (MCP's for tool names)", n, MaxNameChars)
	}
	return nil
}

// checkText checks one line of text: a title, a resource's name, a MIME
// type.
func checkText(s string) error {
	return checkChars(s, MaxTextBytes, textRune, "one line of text holds no control, line-breaking or bidirectional-override character")
}

// checkURI checks a resource URI or URI template.
func checkURI(s string) error {
	return checkChars(s, MaxURIBytes, uriRune, "a URI holds no control, format or invalid character")
}

// checkChars checks s against a size limit and a character rule.
func checkChars(s string, limit int, ok func(rune) bool, rule string) error {
	if err := checkSize(s, limit); err != nil {
		return err
	}
	if i, r, bad := firstBad(s, ok); bad {
		return fmt.Errorf("character %U at byte %d: %s", r, i, rule)
	}
	return nil
}

func checkSize(s string, limit int) error {
	if len(s) > limit {
		return fmt.Errorf("%d bytes, over the limit of %s", len(s), bytesLabel(limit))
	}
	return nil
}

// checkItemSize bounds the stored object of an item.
func checkItemSize(obj []byte, schema []byte) error {
	if len(obj) <= MaxItemBytes {
		return nil
	}
	return fmt.Errorf("the item is %d bytes of JSON (its inputSchema %d), over the limit of %s", len(obj), len(schema), bytesLabel(MaxItemBytes))
}

// checkFileSize bounds a server file before it is read.
func checkFileSize(size int64) error {
	if size > MaxFileBytes {
		return fmt.Errorf("the file is %d bytes, over the limit of %s for one server", size, bytesLabel(MaxFileBytes))
	}
	return nil
}

// checkUTF8 refuses a file that is not UTF-8: its bytes are sent to
// clients as they are.
func checkUTF8(data []byte) error {
	if utf8.Valid(data) {
		return nil
	}
	valid := 0
	for valid < len(data) {
		r, n := utf8.DecodeRune(data[valid:])
		if r == utf8.RuneError && n <= 1 {
			break
		}
		valid += n
	}
	return fmt.Errorf("not valid UTF-8 (line %d)", lineOf(data, int64(valid)))
}

// firstBad returns the first character of s that ok refuses, and its byte
// offset.
func firstBad(s string, ok func(rune) bool) (int, rune, bool) {
	for i, r := range s {
		if !ok(r) {
			return i, r, true
		}
	}
	return 0, 0, false
}

// nameRune: letters, marks, digits, punctuation and symbols; no space, no
// control or format character (U+202E, U+200B), no U+FFFD (an invalid byte
// or a lone surrogate in the file).
func nameRune(r rune) bool {
	return r != utf8.RuneError && unicode.IsGraphic(r) && !unicode.IsSpace(r)
}

// uriRune is nameRune with spaces allowed.
func uriRune(r rune) bool { return r != utf8.RuneError && unicode.IsGraphic(r) }

// textRune allows what one line of display text needs, format characters
// such as the joiners of emoji included, but no control character, no line
// or paragraph separator and no bidirectional embedding, override or
// isolate (U+202A–U+202E, U+2066–U+2069), which reorder what a reader sees.
func textRune(r rune) bool {
	switch {
	case unicode.IsControl(r), unicode.In(r, unicode.Zl, unicode.Zp):
		return false
	case r >= 0x202A && r <= 0x202E, r >= 0x2066 && r <= 0x2069:
		return false
	}
	return true
}

func bytesLabel(n int) string {
	switch {
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}

// clipName shortens a name quoted in an error: a hostile one may be long.
func clipName(s string) string {
	const keep = 64
	if utf8.RuneCountInString(s) <= keep {
		return fmt.Sprintf("%q", s)
	}
	runes := []rune(s)
	return fmt.Sprintf("%q…", string(runes[:keep]))
}
