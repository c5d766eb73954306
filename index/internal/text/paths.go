package text

import (
	"path"
	"strings"
	"unicode"
)

// File paths in a query. A request often names the file it is about
// ("save the report to /root/markdown/report.md"). What picks the tool is
// that a file is involved and what kind of file it is, not where it lives:
// a path's directories would only add words that match tools at random
// ("root", "markdown"). So before a query is analysed, each file path in it
// is replaced by the words of its base name, its extension and the word
// "file": "/root/markdown/report.md" reads "report md file".
//
// A file path is a token that starts with "/", "~/", "./", "../" or a
// drive ("C:\", "D:/") and ends in a name with an extension of one to five
// letters or digits; a URL, a bare name ("report.md") or a directory is
// left as it is.

// WithFileWords returns text with each file path replaced as above, or
// text itself when it names none.
func WithFileWords(text string) string {
	return replaceFilePaths(text, func(name, ext string) string { return name + " " + ext + " file" })
}

// FilesAsWord returns text with each file path replaced by the word
// "file": the words the no-match test asks an item to hold, since no tool
// can be expected to know the name of the caller's file.
func FilesAsWord(text string) string {
	return replaceFilePaths(text, func(string, string) string { return "file" })
}

// replaceFilePaths replaces each file path of text by what with returns
// for its base name and extension.
func replaceFilePaths(text string, with func(name, ext string) string) string {
	if !strings.ContainsAny(text, `/\`) {
		return text
	}
	var b strings.Builder
	changed := false
	for start := 0; start < len(text); {
		end := start
		for end < len(text) && !isSpace(text[end]) {
			end++
		}
		tok := text[start:end]
		core := strings.TrimLeft(strings.TrimRight(tok, `.,;:!?)]}'"`), `([{'"`)
		if name, ext, ok := fileName(core); ok {
			tok = strings.Replace(tok, core, with(name, ext), 1)
			changed = true
		}
		b.WriteString(tok)
		for start = end; start < len(text) && isSpace(text[start]); start++ {
			b.WriteByte(text[start])
		}
	}
	if !changed {
		return text
	}
	return b.String()
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// fileName returns the base name (without its extension) and the
// extension of a file path, or false when tok is not one.
func fileName(tok string) (name, ext string, ok bool) {
	if !isPathStart(tok) {
		return "", "", false
	}
	tok = strings.ReplaceAll(tok, `\`, "/")
	ext = path.Ext(tok)
	if len(ext) < 2 || len(ext) > 6 || !isAlnum(ext[1:]) {
		return "", "", false
	}
	return strings.TrimSuffix(path.Base(tok), ext), ext[1:], true
}

func isPathStart(tok string) bool {
	for _, p := range []string{"/", "~/", "./", "../"} {
		if strings.HasPrefix(tok, p) {
			return !strings.HasPrefix(tok, "//") // a protocol-relative URL
		}
	}
	return len(tok) > 3 && unicode.IsLetter(rune(tok[0])) && tok[1] == ':' && (tok[2] == '\\' || tok[2] == '/')
}

func isAlnum(s string) bool {
	for _, r := range s {
		if !unicode.IsLetter(r) && !unicode.IsDigit(r) {
			return false
		}
	}
	return s != ""
}
