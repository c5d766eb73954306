// Package schema names the fields of an index's documents and the ids of
// its items: what a bundle holds (package index builds it) and what
// retrieval reads (package retrieval). It decides nothing else.
package schema

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext"
)

// Document fields. The text fields and nameExact exist once per kind of
// item, prefixed with the kind's code ("t_name", "p_name", …; see
// KindField): a search of one kind reads only its own postings and
// statistics, with no filter on the kind.
const (
	Server      = "server"      // keyword, stored
	ServerWords = "serverWords" // text
	Name        = "name"        // text: the upstream name, split into words
	NameExact   = "nameExact"   // keyword: own name, letters and digits in lower case
	Title       = "title"       // text
	Description = "description" // text
	Params      = "params"      // text: parameter names and descriptions
	Annotations = "annotations" // keyword: "readonlyhint=true", …
	Visibility  = "visibility"  // keyword: "public", or "g:<group>" and "s:<scope>" (internal/bundle/visibility.go)
	URI         = "uri"         // text: URI or URI template, MIME type
	Related     = "related"     // text: WordNet synonyms of the name, title and description
	Content     = "content"     // text: a resource's text, when the catalog holds it
	Gloss       = "gloss"       // text: English glosses of the Chinese words of the name, title, description and parameters
)

// TextFields are analysed into words.
var TextFields = []string{ServerWords, Name, Title, Description, Params, URI, Related, Content, Gloss}

// KeywordFields are indexed whole, as one term a value.
var KeywordFields = map[string]bool{Server: true, Annotations: true, Visibility: true}

// KindField is the name of field f for items of kind k.
func KindField(k ext.Kind, f string) string { return kindCode[k] + "_" + f }

// Documents. Each item is one bleve document, with the id
// "<kind code>/<ordinal>": the n-th item (from 0) of its kind in catalog
// order, "t/00000042". Its records in the stores and its vector are at
// its position in catalog order: kinds in the order of ext.Kinds, each
// kind's items in catalog order.

// kindCode is the code of each kind in document ids and field names.
var kindCode = map[ext.Kind]string{
	ext.KindTool: "t", ext.KindPrompt: "p", ext.KindResource: "r", ext.KindResourceTemplate: "u",
}

// DocID is the id of the n-th item (from 0) of kind k in catalog order:
// fmt's "%s/%08d" of the kind's code and n, without fmt (a search over
// written requests makes one for each item a request matches, tens of
// thousands at 100,000 tools: BenchmarkDocID).
func DocID(k ext.Kind, n int) string {
	if n < 0 {
		return fmt.Sprintf("%s/%08d", kindCode[k], n)
	}
	var buf [32]byte
	var num [20]byte
	digits := strconv.AppendInt(num[:0], int64(n), 10)
	b := append(buf[:0], kindCode[k]...)
	b = append(b, '/')
	for range 8 - min(len(digits), 8) {
		b = append(b, '0')
	}
	return string(append(b, digits...))
}

// ParseDocID returns the kind and ordinal of a document id.
func ParseDocID(id string) (ext.Kind, int, bool) {
	code, num, ok := strings.Cut(id, "/")
	n, err := strconv.Atoi(num)
	if !ok || err != nil {
		return "", 0, false
	}
	for k, c := range kindCode {
		if c == code {
			return k, n, true
		}
	}
	return "", 0, false
}
