package bundle

import (
	"fmt"
	"math"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// An item's document: what bleve indexes of it.

// document is what bleve indexes for an item: its text fields under the
// names of its kind, in the compatibility form queries are read in
// (normalText).
func document(item *catalog.Item) map[string]any {
	it := normalText(item)
	field := func(f string) string { return schema.KindField(it.Kind, f) }
	doc := map[string]any{
		schema.Server:             item.Server,
		schema.Visibility:         visibilityTerms(it.Visibility),
		field(schema.ServerWords): it.Server,
		field(schema.Name):        it.Label,
		field(schema.NameExact):   text.NormalizeName(it.Label),
		field(schema.Title):       it.Title,
		field(schema.Description): it.Description,
		field(schema.Related):     RelatedWords(it),
		field(schema.Gloss):       itemGloss(it),
	}
	if len(it.Params) > 0 {
		params := make([]string, 0, 2*len(it.Params))
		for _, p := range it.Params {
			params = append(params, p.Name, p.Description)
		}
		doc[field(schema.Params)] = params
	}
	if it.URI != "" || it.MimeType != "" {
		doc[field(schema.URI)] = []string{it.URI, it.MimeType}
	}
	if it.Content != "" {
		doc[field(schema.Content)] = it.Content
	}
	if len(it.Annotations) > 0 {
		doc[schema.Annotations] = annotationTerms(it.Annotations)
	}
	return doc
}

// normalText returns a copy of it whose text is in Unicode compatibility
// form (text.Normalize), as Index.Search reads a query before analysing
// it: the analyser splits words before it folds them, so "Ｓ３" or "CO₂"
// read as written would not give the terms of S3 or CO2 that a query of
// either form searches.
func normalText(it *catalog.Item) *catalog.Item {
	n := *it
	n.Server, n.Label, n.Title, n.Description = normal(it.Server), normal(it.Label), normal(it.Title), normal(it.Description)
	n.URI, n.MimeType, n.Content = normal(it.URI), normal(it.MimeType), normal(it.Content)
	n.Params = make([]catalog.Param, len(it.Params))
	for i, p := range it.Params {
		n.Params[i] = p
		n.Params[i].Name, n.Params[i].Description = normal(p.Name), normal(p.Description)
	}
	return &n
}

// normal is catalog text in compatibility form; its size is the
// catalog's, not bounded as a query's is.
func normal(s string) string { return text.Normalize(s, math.MaxInt) }

// itemGloss is the English gloss of the Chinese words of an item's name,
// title, description and parameters.
func itemGloss(it *catalog.Item) string {
	parts := []string{it.Label, it.Title, it.Description}
	for _, p := range it.Params {
		parts = append(parts, p.Name, p.Description)
	}
	return text.GlossChinese(strings.Join(parts, "\n"))
}

// RelatedWords are the WordNet synonyms of an item's name, title and
// description.
func RelatedWords(it *catalog.Item) string {
	return text.Expansion(strings.Join(text.SplitName(it.Label), " ") + "\n" + it.Title + "\n" + it.Description)
}

// annotationTerms renders annotations as keyword terms "key=value", keys and
// values in lower case; only scalar values are indexed.
func annotationTerms(a map[string]any) []string {
	terms := make([]string, 0, len(a))
	for k, v := range a {
		if t, ok := AnnotationTerm(k, v); ok {
			terms = append(terms, t)
		}
	}
	return terms
}

func AnnotationTerm(k string, v any) (string, bool) {
	switch v.(type) {
	case bool, string, float64, int:
		return strings.ToLower(fmt.Sprintf("%s=%v", k, v)), true
	}
	return "", false
}

// addFieldLengths adds the token counts of doc's indexed fields to lengths.
func addFieldLengths(lengths map[string]int, doc map[string]any) {
	for field, v := range doc {
		var values []string
		switch v := v.(type) {
		case string:
			values = []string{v}
		case []string:
			values = v
		}
		for _, val := range values {
			if isKeywordField(field) {
				lengths[field]++
			} else {
				lengths[field] += len(text.Tokens(val))
			}
		}
	}
}

// itemCounts counts the catalog's items of each kind.
func itemCounts(cat *catalog.Catalog) map[ext.Kind]int {
	counts := map[ext.Kind]int{}
	for _, it := range cat.Items {
		counts[it.Kind]++
	}
	return counts
}
