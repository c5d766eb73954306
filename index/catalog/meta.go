package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"unicode"
)

// An item's _meta holds what the project adds to it (MetaVisibility,
// MetaRequests). These edit one key of it and keep every other byte of
// the object: an item is served as its upstream listed it, and a catalog
// file written back changes only where it is meant to.

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
