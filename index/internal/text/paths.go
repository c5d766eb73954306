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
// letters or digits, or a bare name whose extension is one of the common
// extensions of documents, data, media, archives and code
// (fileExtensions: "summary.txt", "main.go"); a URL, a directory and a
// bare name of another extension
// ("node.js", "socket.io", "example.com": products and domains) are left
// as they are.

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
	if !strings.ContainsAny(text, `/\.`) {
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

// IsFileName reports whether tok is a file path or a bare file name of a
// common extension, as WithFileWords reads one.
func IsFileName(tok string) bool {
	_, _, ok := fileName(tok)
	return ok
}

// fileName returns the base name (without its extension) and the
// extension of a file path, or false when tok is not one.
func fileName(tok string) (name, ext string, ok bool) {
	if !isPathStart(tok) {
		return bareFileName(tok)
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

// fileExtensions are the extensions a bare file name is recognised by:
// common documents, data, media, archives and source files, none of them
// a top-level domain people type or a product's suffix (js, io, net, ai,
// app, dev are left out).
var fileExtensions = map[string]bool{
	"txt": true, "md": true, "pdf": true, "doc": true, "docx": true, "odt": true, "rtf": true,
	"xls": true, "xlsx": true, "ods": true, "csv": true, "tsv": true, "ppt": true, "pptx": true, "odp": true,
	"json": true, "yaml": true, "yml": true, "xml": true, "toml": true, "ini": true, "log": true, "sql": true,
	"html": true, "htm": true, "css": true, "png": true, "jpg": true, "jpeg": true, "gif": true, "svg": true, "webp": true,
	"mp3": true, "wav": true, "mp4": true, "mov": true, "zip": true, "tar": true, "gz": true,
	"py": true, "go": true, "ts": true, "tsx": true, "jsx": true, "java": true, "rb": true, "rs": true, "sh": true, "ipynb": true,
}

// bareFileName returns the name and extension of a file name without a
// directory whose extension is one of fileExtensions.
func bareFileName(tok string) (name, ext string, ok bool) {
	i := strings.LastIndexByte(tok, '.')
	if i <= 0 || strings.ContainsAny(tok, `/\:@`) {
		return "", "", false
	}
	name, ext = tok[:i], tok[i+1:]
	if !fileExtensions[strings.ToLower(ext)] || !isAlnum(strings.NewReplacer("_", "", "-", "", ".", "").Replace(name)) {
		return "", "", false
	}
	return name, ext, true
}
