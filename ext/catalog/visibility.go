package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"unicode"
)

// Visibility restricts who sees an item: members of any of Groups, and
// holders of any of Scopes. The zero Visibility is public.
//
// A server file restricts all its items with its "visibility" key; an item
// restricts (or re-restricts) itself with
// _meta["io.github.mcpsearch/visibility"], which replaces the server's:
//
//	{"server": "payroll", "visibility": {"groups": ["hr"]}, "tools": [
//	  {"name": "run_payroll", "_meta": {"io.github.mcpsearch/visibility": {"groups": ["hr-admin"], "scopes": ["payroll:write"]}}, …}]}
//
// The item key is removed from the object clients see.
type Visibility struct {
	Groups []string `json:"groups,omitempty"`
	Scopes []string `json:"scopes,omitempty"`
}

// MetaVisibility is the _meta key of an item's own visibility.
const MetaVisibility = "io.github.mcpsearch/visibility"

// Public reports whether v restricts nothing.
func (v Visibility) Public() bool { return len(v.Groups) == 0 && len(v.Scopes) == 0 }

// maxVisibilityName bounds a group or scope name.
const maxVisibilityName = 256

// parseVisibility validates a visibility object; field names it in errors.
// An absent or null object is public.
func parseVisibility(raw json.RawMessage) (Visibility, string, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return Visibility{}, "", nil
	}
	var obj map[string]json.RawMessage
	if bytes.TrimSpace(raw)[0] != '{' || json.Unmarshal(raw, &obj) != nil {
		return Visibility{}, "", errors.New(`want an object {"groups": [...], "scopes": [...]}`)
	}
	var v Visibility
	for key, val := range obj {
		var list *[]string
		switch key {
		case "groups":
			list = &v.Groups
		case "scopes":
			list = &v.Scopes
		default:
			return Visibility{}, key, errors.New("unknown field: want groups or scopes")
		}
		names, field, err := parseNames(val)
		if err != nil {
			return Visibility{}, key + field, err
		}
		*list = names
	}
	if v.Public() {
		return Visibility{}, "", errors.New("names no group and no scope: omit it to make the items public")
	}
	return v, "", nil
}

// parseNames validates a list of group or scope names and returns it
// sorted and deduplicated.
func parseNames(raw json.RawMessage) ([]string, string, error) {
	var names []string
	if json.Unmarshal(raw, &names) != nil {
		return nil, "", errors.New("want an array of strings")
	}
	for i, n := range names {
		if n == "" || len(n) > maxVisibilityName || strings.IndexFunc(n, invalidNameRune) >= 0 {
			return nil, fmt.Sprintf("[%d]", i), fmt.Errorf("%q is not a group or scope name (1 to %d characters, no spaces or control characters)", n, maxVisibilityName)
		}
	}
	slices.Sort(names)
	return slices.Compact(names), "", nil
}

func invalidNameRune(r rune) bool { return unicode.IsSpace(r) || unicode.IsControl(r) }

// itemVisibility takes an item's own visibility out of its _meta (meta,
// from itemMeta): it returns the visibility (ok false when the item has none) and the object
// without the key.
func itemVisibility(obj json.RawMessage, meta map[string]json.RawMessage) (v Visibility, ok bool, out json.RawMessage, field string, err error) {
	raw, ok := meta[MetaVisibility]
	if !ok {
		return Visibility{}, false, obj, "", nil
	}
	field = "_meta." + MetaVisibility
	v, sub, err := parseVisibility(raw)
	if err == nil && v.Public() {
		err = errors.New("null: omit it to use the server's visibility")
	}
	if err != nil {
		return Visibility{}, false, nil, joinField(field, sub), err
	}
	out, err = withoutMetaKey(obj, MetaVisibility)
	return v, true, out, field, err
}

func joinField(field, sub string) string {
	if sub == "" {
		return field
	}
	if sub[0] == '[' {
		return field + sub
	}
	return field + "." + sub
}
