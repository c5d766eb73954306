package index

import (
	"strings"

	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// The mapping is written into every bundle, with the names of its analysis
// components: text.AddTo registers them (Build and Open call it), so that
// bleve can read the mapping of a bundle, as the tests do.

// Document fields. The text fields and nameExact exist once per kind of
// item, prefixed with the kind's code ("t_name", "p_name", …; see
// kindField): a search of one kind reads only its own postings and
// statistics, with no filter on the kind.
const (
	fieldServer      = "server"      // keyword, stored
	fieldServerWords = "serverWords" // text
	fieldName        = "name"        // text: the upstream name, split into words
	fieldNameExact   = "nameExact"   // keyword: own name, letters and digits in lower case
	fieldTitle       = "title"       // text
	fieldDescription = "description" // text
	fieldParams      = "params"      // text: parameter names and descriptions
	fieldAnnotations = "annotations" // keyword: "readonlyhint=true", …
	fieldVisibility  = "visibility"  // keyword: "public", or "g:<group>" and "s:<scope>" (visibility.go)
	fieldURI         = "uri"         // text: URI or URI template, MIME type
	fieldRelated     = "related"     // text: WordNet synonyms of the name, title and description
	fieldContent     = "content"     // text: a resource's text, when the catalog holds it
	fieldGloss       = "gloss"       // text: English glosses of the Chinese words of the name, title, description and parameters
)

// textFields are analysed into words.
var textFields = []string{fieldServerWords, fieldName, fieldTitle, fieldDescription, fieldParams, fieldURI, fieldRelated, fieldContent, fieldGloss}

// keywordFields are indexed whole, as one term a value.
var keywordFields = map[string]bool{fieldServer: true, fieldAnnotations: true, fieldVisibility: true}

// kindField is the name of field f for items of kind k.
func kindField(k ext.Kind, f string) string { return kindCode[k] + "_" + f }

// isKeywordField reports whether the document field named name is indexed
// whole.
func isKeywordField(name string) bool {
	return keywordFields[name] || strings.HasSuffix(name, "_"+fieldNameExact)
}

// indexedFields lists every indexed field of every kind.
func indexedFields() []string {
	fields := []string{fieldServer, fieldAnnotations, fieldVisibility}
	for _, k := range ext.Kinds {
		fields = append(fields, kindField(k, fieldNameExact))
		for _, f := range textFields {
			fields = append(fields, kindField(k, f))
		}
	}
	return fields
}

// newMapping returns the index mapping: BM25 scoring, explicit fields only
// (no dynamic fields, no _all), nothing stored (the record stores keep
// names and objects), and none of the term vectors or doc values that
// search does not use, to keep bundles small. Text fields are analysed by
// the text analyzer (package text), which it registers with bleve.
func newMapping() (*mapping.IndexMappingImpl, error) {
	m := mapping.NewIndexMapping()
	m.ScoringModel = "bm25"
	m.DefaultAnalyzer = text.AnalyzerName
	m.StoreDynamic, m.IndexDynamic, m.DocValuesDynamic = false, false, false
	if err := text.AddTo(m); err != nil {
		return nil, err
	}
	doc := mapping.NewDocumentMapping()
	doc.Dynamic = false
	for _, f := range indexedFields() {
		if isKeywordField(f) {
			doc.AddFieldMappingsAt(f, keywordField())
		} else {
			doc.AddFieldMappingsAt(f, textField())
		}
	}
	m.DefaultMapping = doc
	return m, nil
}

func textField() *mapping.FieldMapping {
	f := mapping.NewTextFieldMapping()
	f.Analyzer = text.AnalyzerName
	f.Store, f.IncludeTermVectors, f.IncludeInAll, f.DocValues = false, false, false, false
	return f
}

func keywordField() *mapping.FieldMapping {
	f := mapping.NewKeywordFieldMapping()
	f.Analyzer = keyword.Name
	f.Store, f.IncludeTermVectors, f.IncludeInAll, f.DocValues = false, false, false, false
	return f
}

// SplitName splits an identifier into its lower-case words as the index
// analyses names: snake_case, kebab-case, camelCase, acronyms (getURLs →
// get, urls). The WordNet distiller reads the catalogs' vocabulary with it.
func SplitName(s string) []string { return text.SplitName(s) }
