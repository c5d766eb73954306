package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"

	"github.com/mcpsearch/mcpsearch/ext"
)

// itemParser validates the items of one server file.
type itemParser struct {
	file, server, sep string
	visibility        Visibility // the server's
}

// rawItem holds the fields of any MCP item that indexing reads.
type rawItem struct {
	Name        *string                    `json:"name"`
	Title       *string                    `json:"title"`
	Description *string                    `json:"description"`
	InputSchema json.RawMessage            `json:"inputSchema"`
	Annotations map[string]json.RawMessage `json:"annotations"`
	Arguments   []struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	} `json:"arguments"`
	URI         *string `json:"uri"`
	URITemplate *string `json:"uriTemplate"`
	MimeType    *string `json:"mimeType"`
}

var groupField = map[ext.Kind]string{
	ext.KindTool: "tools", ext.KindPrompt: "prompts",
	ext.KindResource: "resources", ext.KindResourceTemplate: "resourceTemplates",
}

func (p *itemParser) parse(k ext.Kind, i int, raw json.RawMessage) (Item, error) {
	where := fmt.Sprintf("%s[%d]", groupField[k], i)
	fail := func(field string, err error) (Item, error) {
		return Item{}, &LoadError{File: p.file, Item: where, Field: field, Err: err}
	}
	var r rawItem
	if err := json.Unmarshal(raw, &r); err != nil {
		var typ *json.UnmarshalTypeError
		if errors.As(err, &typ) && typ.Field != "" {
			return fail(typ.Field, fmt.Errorf("want %s, got JSON %s", typ.Type, typ.Value))
		}
		return fail("", errors.New("not a JSON object"))
	}
	if r.Name == nil || *r.Name == "" {
		return fail("name", errors.New("missing: every item has a name"))
	}
	where = fmt.Sprintf("%s %s", where, clipName(*r.Name))
	meta := itemMeta(raw)
	if field, err := checkProjectKeys(meta); err != nil {
		return fail(field, err)
	}
	vis, own, raw, field, err := itemVisibility(raw, meta)
	if err != nil {
		return fail(field, err)
	}
	if !own {
		vis = p.visibility
	}
	requests, raw, field, err := itemRequests(raw, meta)
	if err != nil {
		return fail(field, err)
	}
	it := Item{Kind: k, Server: p.server, Label: *r.Name, Title: deref(r.Title), Description: deref(r.Description), MimeType: deref(r.MimeType), Visibility: vis, Requests: requests}
	switch k {
	case ext.KindTool:
		params, err := schemaParams(r.InputSchema)
		if err != nil {
			return fail("inputSchema", err)
		}
		it.Params = params
		it.Annotations = decodeAnnotations(r.Annotations)
		if t, ok := it.Annotations["title"].(string); ok && it.Title == "" {
			it.Title = t
		}
	case ext.KindPrompt:
		for j, a := range r.Arguments {
			if a.Name == "" {
				return fail(fmt.Sprintf("arguments[%d].name", j), errors.New("missing"))
			}
			it.Params = append(it.Params, Param{a.Name, a.Description})
		}
	case ext.KindResource:
		if r.URI == nil || *r.URI == "" {
			return fail("uri", errors.New("missing: every resource has a URI"))
		}
		if _, _, err := topLevelValue(raw, "uri"); err != nil {
			return fail("uri", err)
		}
		it.URI = *r.URI
	case ext.KindResourceTemplate:
		if r.URITemplate == nil || *r.URITemplate == "" {
			return fail("uriTemplate", errors.New("missing: every resource template has a URI template"))
		}
		if _, _, err := topLevelValue(raw, "uriTemplate"); err != nil {
			return fail("uriTemplate", err)
		}
		it.URI = *r.URITemplate
	}
	if field, err := p.checkFields(&it, &r); err != nil {
		return fail(field, err)
	}
	if it, err = p.name(it, *r.Name, raw); err != nil {
		return fail("name", err)
	}
	if err := checkItemSize(it.Object, r.InputSchema); err != nil {
		return fail("", err)
	}
	return it, nil
}

// name sets the canonical and upstream names and the stored object.
func (p *itemParser) name(it Item, upstream string, raw json.RawMessage) (Item, error) {
	var compact bytes.Buffer
	if err := json.Compact(&compact, raw); err != nil {
		return Item{}, err
	}
	it.Object = compact.Bytes()
	switch it.Kind {
	case ext.KindTool, ext.KindPrompt:
		it.UpstreamName = upstream
		it.Name = p.server + p.sep + upstream
		obj, err := setName(it.Object, it.Name)
		if err != nil {
			return Item{}, err
		}
		it.Object = obj
	default:
		it.UpstreamName, it.Name = it.URI, it.URI
	}
	return it, nil
}

// setName replaces the value of the object's top-level "name" with name,
// keeping every other byte. An object with "name" twice is refused: JSON
// readers disagree on which one counts.
func setName(obj json.RawMessage, name string) (json.RawMessage, error) {
	start, end, err := topLevelValue(obj, "name")
	if err != nil {
		return nil, err
	}
	quoted, _ := json.Marshal(name)
	out := make([]byte, 0, len(obj)+len(quoted))
	out = append(out, obj[:start]...)
	out = append(out, quoted...)
	return append(out, obj[end:]...), nil
}

// topLevelValue returns the extent of the value of key at depth one of the
// JSON object obj; key must appear exactly once, spelt exactly (errNoKey
// when it does not appear).
func topLevelValue(obj []byte, key string) (start, end int, err error) {
	dec := json.NewDecoder(bytes.NewReader(obj))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return 0, 0, errors.New("not a JSON object")
	}
	found := false
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return 0, 0, err
		}
		var value json.RawMessage
		if err := dec.Decode(&value); err != nil {
			return 0, 0, err
		}
		if k, _ := t.(string); k == key {
			if found {
				return 0, 0, fmt.Errorf("key %q appears twice", key)
			}
			found, end = true, int(dec.InputOffset())
			start = end - len(value) // the value's bytes end where the decoder stopped
		}
	}
	if !found {
		return 0, 0, fmt.Errorf("%w %q (keys are case-sensitive)", errNoKey, key)
	}
	return start, end, nil
}

func deref(s *string) string {
	if s == nil {
		return ""
	}
	return *s
}

// schemaParams checks that a tool's inputSchema is a JSON Schema object and
// returns its top-level properties, sorted by name.
func schemaParams(raw json.RawMessage) ([]Param, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, errors.New("missing: every tool has an inputSchema object")
	}
	var schema struct {
		Type       any                        `json:"type"`
		Properties map[string]json.RawMessage `json:"properties"`
	}
	if raw[0] != '{' || json.Unmarshal(raw, &schema) != nil {
		return nil, fmt.Errorf("must be a JSON object, got %.40s", raw)
	}
	if schema.Type != nil && schema.Type != "object" {
		return nil, fmt.Errorf("type must be \"object\", got %v", schema.Type)
	}
	names := make([]string, 0, len(schema.Properties))
	for n := range schema.Properties {
		names = append(names, n)
	}
	slices.Sort(names)
	params := make([]Param, 0, len(names))
	for _, n := range names {
		var prop struct {
			Description string `json:"description"`
		}
		json.Unmarshal(schema.Properties[n], &prop) // a property that is not an object has no description
		params = append(params, Param{n, prop.Description})
	}
	return params, nil
}

// Standard tool hints and their values when a tool does not set them.
var hintDefaults = map[string]bool{
	"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true,
}

// decodeAnnotations returns a tool's annotations with the standard hints
// filled in with their defaults.
func decodeAnnotations(raw map[string]json.RawMessage) map[string]any {
	out := map[string]any{}
	for k, v := range hintDefaults {
		out[k] = v
	}
	for k, v := range raw {
		var val any
		if json.Unmarshal(v, &val) == nil {
			out[k] = val
		}
	}
	return out
}

// errNoKey is the error of topLevelValue when the object has no such key.
var errNoKey = errors.New("no top-level key")
