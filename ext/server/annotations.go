package server

import (
	"encoding/json"
	"fmt"
	"maps"
	"slices"

	"github.com/mcpsearch/mcpsearch/ext"
)

// The bounds of an annotations filter. Each annotation is a clause every
// match must pass, and its name and value are copied, lowered and looked
// up: a filter of 9,900 spellings of the four hints (233 KB) cost 1.7 s
// and 29 MB, 650 times an ordinary search, before these bounds.

// annotationsCount refuses, before the params are decoded, a filter that
// names more than ext.MaxFilterAnnotations annotations; params passed
// scanMessage.
func annotationsCount(params json.RawMessage) error {
	n := 0
	eachMember(memberValue(memberValue(params, "filter"), "annotations"), func(_, _ []byte) bool {
		n++
		return true
	})
	if n > ext.MaxFilterAnnotations {
		return fmt.Errorf("%w: filter.annotations names %d annotations, at most %d are allowed", ext.ErrInvalidParams, n, ext.MaxFilterAnnotations)
	}
	return nil
}

// annotationSizes refuses an annotation name or text value longer than
// ext.MaxAnnotationBytes: it names nothing a catalog can hold (a title is
// at most as long), and would cost its length to copy, key and look up.
func annotationSizes(annotations map[string]any) error {
	for _, name := range slices.Sorted(maps.Keys(annotations)) {
		if len(name) > ext.MaxAnnotationBytes {
			return fmt.Errorf("%w: the name filter.annotations[%s] is %d bytes long; an annotation's name has at most %d", ext.ErrInvalidParams, ext.QuoteShort(name), len(name), ext.MaxAnnotationBytes)
		}
		if s, ok := annotations[name].(string); ok && len(s) > ext.MaxAnnotationBytes {
			return fmt.Errorf("%w: filter.annotations[%s] is %d bytes long; an annotation's text value has at most %d", ext.ErrInvalidParams, ext.QuoteShort(name), len(s), ext.MaxAnnotationBytes)
		}
	}
	return nil
}
