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

// An item's _meta holds what the project adds to it (MetaVisibility,
// MetaRequests). These edit one key of it and keep every other byte of
// the object: an item is served as its upstream listed it, and a catalog
// file written back changes only where it is meant to.

// MetaPrefix begins every _meta key of the project: the catalog's
// (MetaVisibility, MetaRequests) and those the server adds to its answers
// (ext.MetaServer, ext.MetaScore, …).
const MetaPrefix = "io.github.mcpsearch/"

// itemMeta returns the _meta object of an item: nil when it has none, or
// one that is not an object (which holds no key of the project's).
func itemMeta(obj json.RawMessage) map[string]json.RawMessage {
	var probe struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(obj, &probe) != nil {
		return nil
	}
	return probe.Meta
}

// checkProjectKeys refuses, in an item's _meta, a key of the project's
// other than the catalog's own: a misspelt visibility would leave the item
// public, and the other keys are the server's to add to its answers, never
// a catalog's to hold (a crawl strips them from what upstreams list). It
// returns the field at fault.
func checkProjectKeys(meta map[string]json.RawMessage) (string, error) {
	keys := make([]string, 0, len(meta))
	for k := range meta {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	for _, k := range keys {
		if strings.HasPrefix(k, MetaPrefix) && k != MetaVisibility && k != MetaRequests {
			return "_meta." + fieldName(k), fmt.Errorf("not a key a catalog holds: the catalog's keys under %s are %q and %q", MetaPrefix, MetaVisibility, MetaRequests)
		}
	}
	return "", nil
}

// WithoutProjectKeys returns obj, an item as an upstream listed it,
// without the project's keys in its _meta (each member whose name, as
// decoded, begins with MetaPrefix, however it is escaped), and without
// _meta if that leaves it empty; every other byte is kept. It returns the
// keys it removed. What those keys hold comes from the operator's files,
// never from an upstream's answer: the crawler strips them from every item
// it lists.
func WithoutProjectKeys(obj json.RawMessage) (json.RawMessage, []string, error) {
	start, end, err := topLevelValue(obj, "_meta")
	if errors.Is(err, errNoKey) {
		return obj, nil, nil
	}
	if err != nil {
		return nil, nil, err
	}
	meta := obj[start:end]
	if bytes.TrimSpace(meta)[0] != '{' {
		return obj, nil, nil // not an object: it holds no key
	}
	var removed []string
	for {
		key, found, err := firstMemberWith(meta, MetaPrefix)
		if err != nil {
			return nil, nil, fmt.Errorf("_meta: %w", err)
		}
		if !found {
			break
		}
		if meta, err = withoutMember(meta, key); err != nil {
			return nil, nil, fmt.Errorf("_meta: %w", err)
		}
		removed = append(removed, key)
	}
	if len(removed) == 0 {
		return obj, nil, nil
	}
	if isEmptyObject(meta) {
		out, err := withoutMember(obj, "_meta")
		return out, removed, err
	}
	return splice(obj, start, end, meta), removed, nil
}

// firstMemberWith returns the name, as decoded, of the first member of the
// JSON object obj whose name begins with prefix.
func firstMemberWith(obj []byte, prefix string) (string, bool, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", false, errors.New("not a JSON object")
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return "", false, err
		}
		if k, _ := t.(string); strings.HasPrefix(k, prefix) {
			return k, true, nil
		}
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return "", false, err
		}
	}
	return "", false, nil
}

// withoutMetaKey returns obj without _meta[key] (and without _meta if that
// leaves it empty), every other byte as it was: the object is served as
// its upstream listed it, members in their order, characters as written.
func withoutMetaKey(obj json.RawMessage, key string) (json.RawMessage, error) {
	start, end, err := topLevelValue(obj, "_meta")
	if err != nil {
		return nil, err
	}
	meta, err := withoutMember(obj[start:end], key)
	if err != nil {
		return nil, fmt.Errorf("_meta: %w", err)
	}
	if isEmptyObject(meta) {
		return withoutMember(obj, "_meta")
	}
	return splice(obj, start, end, meta), nil
}

// withoutMember returns the JSON object obj without its top-level member
// key (once), every other byte kept; obj itself when it has none.
func withoutMember(obj []byte, key string) ([]byte, error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	prev, first := int(dec.InputOffset()), true // the end of the last value, or of "{"
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return nil, err
		}
		end := int(dec.InputOffset())
		if k, _ := t.(string); k == key {
			if first { // no comma before it: take the one after it, if any
				if i := bytes.IndexFunc(obj[end:], func(r rune) bool { return !unicode.IsSpace(r) }); i >= 0 && obj[end+i] == ',' {
					end += i + 1
				}
			}
			return splice(obj, prev, end, nil), nil
		}
		prev, first = end, false
	}
	return obj, nil
}

// isEmptyObject reports whether obj is an object without members.
func isEmptyObject(obj []byte) bool {
	var m map[string]json.RawMessage
	return json.Unmarshal(obj, &m) == nil && m != nil && len(m) == 0
}

// WithMetaKey returns obj with _meta[key] set to value (and _meta added
// when obj has none), every other byte kept: the catalog file's writers
// (crawl, mcpsearch requests apply) use it.
func WithMetaKey(obj json.RawMessage, key string, value json.RawMessage) (json.RawMessage, error) {
	member, err := encodeMember(key, value)
	if err != nil {
		return nil, err
	}
	start, end, err := topLevelValue(obj, "_meta")
	if errors.Is(err, errNoKey) {
		return insertMember(obj, append([]byte(`"_meta":{`), append(member, '}')...))
	}
	if err != nil {
		return nil, err
	}
	meta := obj[start:end]
	var edited []byte
	if s, e, err := topLevelValue(meta, key); err == nil {
		edited = splice(meta, s, e, member[bytes.IndexByte(member, ':')+1:])
	} else if errors.Is(err, errNoKey) {
		edited, err = insertMember(meta, member)
		if err != nil {
			return nil, fmt.Errorf("_meta: %w", err)
		}
	} else {
		return nil, fmt.Errorf("_meta: %w", err)
	}
	return splice(obj, start, end, edited), nil
}

// encodeMember returns `"key":value`, value compacted.
func encodeMember(key string, value json.RawMessage) ([]byte, error) {
	k, err := json.Marshal(key)
	if err != nil {
		return nil, err
	}
	var b bytes.Buffer
	b.Write(k)
	b.WriteByte(':')
	if err := json.Compact(&b, value); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// insertMember returns the object obj with member added last.
func insertMember(obj, member []byte) ([]byte, error) {
	end := bytes.LastIndexByte(obj, '}')
	if end < 0 {
		return nil, errors.New("not a JSON object")
	}
	sep := []byte(",")
	if isEmptyObject(obj) {
		sep = nil
	}
	return splice(obj, end, end, append(sep, member...)), nil
}

// splice returns b with b[start:end] replaced by with, in a new slice.
func splice(b []byte, start, end int, with []byte) []byte {
	out := make([]byte, 0, len(b)-(end-start)+len(with))
	return append(append(append(out, b[:start]...), with...), b[end:]...)
}
