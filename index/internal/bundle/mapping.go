package bundle

import (
	"strings"

	"github.com/blevesearch/bleve/v2/analysis/analyzer/keyword"
	"github.com/blevesearch/bleve/v2/mapping"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// The mapping is written into every bundle, with the names of its analysis
// components: text.AddTo registers them (Build and Open call it), so that
// bleve can read the mapping of a bundle, as the tests do.

// isKeywordField reports whether the document field named name is indexed
// whole.
func isKeywordField(name string) bool {
	return schema.KeywordFields[name] || strings.HasSuffix(name, "_"+schema.NameExact)
}

// indexedFields lists every indexed field of every kind.
func indexedFields() []string {
	fields := []string{schema.Server, schema.Annotations, schema.Visibility}
	for _, k := range ext.Kinds {
		fields = append(fields, schema.KindField(k, schema.NameExact))
		for _, f := range schema.TextFields {
			fields = append(fields, schema.KindField(k, f))
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
