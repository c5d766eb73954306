package requests

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// object is a JSON object with its members in the order written, so that
// a file is written back as it was but for what is changed.
type object struct {
	keys   []string
	values []json.RawMessage
}

// decodeObject reads a JSON object, keeping the order of its members.
func decodeObject(data []byte) (*object, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	o := &object{}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := t.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, fmt.Errorf("member %q: %w", key, err)
		}
		o.keys, o.values = append(o.keys, key), append(o.values, v)
	}
	if _, err := dec.Token(); err != nil {
		return nil, err
	}
	return o, nil
}

// get returns the value of key, or nil.
func (o *object) get(key string) json.RawMessage {
	for i, k := range o.keys {
		if k == key {
			return o.values[i]
		}
	}
	return nil
}

// set sets the value of key, last when it is new.
func (o *object) set(key string, v json.RawMessage) {
	for i, k := range o.keys {
		if k == key {
			o.values[i] = v
			return
		}
	}
	o.keys, o.values = append(o.keys, key), append(o.values, v)
}

// array returns the elements of the array at key (none when it is absent
// or null).
func (o *object) array(key string) ([]json.RawMessage, error) {
	var out []json.RawMessage
	if v := o.get(key); v != nil {
		if err := json.Unmarshal(v, &out); err != nil {
			return nil, fmt.Errorf("member %s: %w", key, err)
		}
	}
	return out, nil
}

// setArray sets the array at key.
func (o *object) setArray(key string, items []json.RawMessage) error {
	v, err := marshal(items)
	if err == nil {
		o.set(key, v)
	}
	return err
}

// encode writes o compactly, its members in order.
func (o *object) encode() (json.RawMessage, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, k := range o.keys {
		if i > 0 {
			b.WriteByte(',')
		}
		key, err := marshal(k)
		if err != nil {
			return nil, err
		}
		b.Write(key)
		b.WriteByte(':')
		if err := json.Compact(&b, o.values[i]); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// encode writes the server file o in the layout of original, the file it
// was read from: indented as its second line is, with or without a final
// newline as it was (the default catalog's files come back byte for byte).
func encode(o *object, original []byte) ([]byte, error) {
	compact, err := o.encode()
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, compact, "", indentOf(original)); err != nil {
		return nil, err
	}
	if bytes.HasSuffix(original, []byte("\n")) {
		out.WriteByte('\n')
	}
	return out.Bytes(), nil
}

// indentOf returns the indentation of the second line of data (a JSON
// object's first member), or two spaces.
func indentOf(data []byte) string {
	_, rest, ok := bytes.Cut(data, []byte("\n"))
	if !ok {
		return "  "
	}
	n := len(rest) - len(bytes.TrimLeft(rest, " \t"))
	if n == 0 {
		return "  "
	}
	return string(rest[:n])
}

// marshal encodes v without escaping <, > and &, as people write them.
func marshal(v any) (json.RawMessage, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimRight(b.Bytes(), "\n"), nil
}
