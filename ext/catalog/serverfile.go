package catalog

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"sync"

	"github.com/mcpsearch/mcpsearch/ext"
)

// serverFile is the on-disk format of one server's catalog.
type serverFile struct {
	Server     *string         `json:"server"`
	Package    string          `json:"package"`
	License    string          `json:"license"`
	Source     json.RawMessage `json:"source"`
	Upstream   json.RawMessage `json:"upstream"`
	Visibility json.RawMessage `json:"visibility"`
	ServerInfo struct {
		Name        string `json:"name"`
		Description string `json:"description"`
	} `json:"serverInfo"`
	Tools             []json.RawMessage `json:"tools"`
	Prompts           []json.RawMessage `json:"prompts"`
	Resources         []json.RawMessage `json:"resources"`
	ResourceTemplates []json.RawMessage `json:"resourceTemplates"`
	ResourceContents  []json.RawMessage `json:"resourceContents"`
}

// resourceContent is one entry of a file's resourceContents: the text an
// upstream returned from resources/read for one listed resource.
type resourceContent struct {
	URI      *string `json:"uri"`
	MimeType string  `json:"mimeType"`
	Text     *string `json:"text"`
}

// The patterns of name separators and server names, compiled on first use.
var (
	separatorRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[_\-./:]{1,8}$`) })
	serverNameRE = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(fmt.Sprintf(`^[A-Za-z0-9][A-Za-z0-9_.-]{0,%d}$`, ext.MaxServerNameChars-1))
	})
)

func parseServerFile(file string, data []byte, sep string) (Server, []Item, error) {
	var sf serverFile
	if err := checkUTF8(data); err != nil {
		return Server{}, nil, &LoadError{File: file, Err: err}
	}
	if err := decodeFile(file, data, &sf); err != nil {
		return Server{}, nil, err
	}
	name, err := serverName(sf.Server, sep)
	if err != nil {
		return Server{}, nil, &LoadError{File: file, Field: "server", Err: err}
	}
	vis, field, err := parseVisibility(sf.Visibility)
	if err != nil {
		return Server{}, nil, &LoadError{File: file, Field: joinField("visibility", field), Err: err}
	}
	if field, err := checkUpstream(sf.Upstream); err != nil {
		return Server{}, nil, &LoadError{File: file, Field: field, Err: err}
	}
	srv := Server{Name: name, File: file, Package: sf.Package, License: sf.License, Source: compactOrNil(sf.Source),
		Upstream: compactOrNil(sf.Upstream), Visibility: compactOrNil(sf.Visibility), About: FirstSentence(sf.ServerInfo.Description), InfoName: sf.ServerInfo.Name}
	p := itemParser{file: file, server: name, sep: sep, visibility: vis}
	var items []Item
	for _, group := range []struct {
		kind ext.Kind
		raws []json.RawMessage
	}{{ext.KindTool, sf.Tools}, {ext.KindPrompt, sf.Prompts}, {ext.KindResource, sf.Resources}, {ext.KindResourceTemplate, sf.ResourceTemplates}} {
		for i, raw := range group.raws {
			it, err := p.parse(group.kind, i, raw)
			if err != nil {
				return Server{}, nil, err
			}
			items = append(items, it)
		}
	}
	if err := attachContents(file, sf.ResourceContents, items); err != nil {
		return Server{}, nil, err
	}
	return srv, items, nil
}

// attachContents sets the Content of the resources that raws name. Each
// entry must name a listed resource, once, and carry its text.
func attachContents(file string, raws []json.RawMessage, items []Item) error {
	byURI := map[string]*Item{}
	for i := range items {
		if items[i].Kind == ext.KindResource {
			byURI[items[i].URI] = &items[i]
		}
	}
	seen := map[string]bool{}
	for i, raw := range raws {
		where := fmt.Sprintf("resourceContents[%d]", i)
		fail := func(field string, err error) error {
			return &LoadError{File: file, Item: where, Field: field, Err: err}
		}
		var c resourceContent
		if err := json.Unmarshal(raw, &c); err != nil {
			return fail("", errors.New("not a JSON object with string uri, mimeType and text"))
		}
		switch it := byURI[deref(c.URI)]; {
		case c.URI == nil || *c.URI == "":
			return fail("uri", errors.New("missing"))
		case it == nil:
			return fail("uri", fmt.Errorf("%q names no resource listed in resources", *c.URI))
		case seen[*c.URI]:
			return fail("uri", fmt.Errorf("%q has contents already", *c.URI))
		case c.Text == nil:
			return fail("text", errors.New("missing"))
		case len(*c.Text) > MaxContentBytes:
			return fail("text", checkSize(*c.Text, MaxContentBytes))
		default:
			seen[*c.URI] = true
			it.Content = *c.Text
		}
	}
	return nil
}

// decodeFile checks the shape of a server file's text (checkShape) and
// decodes it. Text that is not JSON is reported by decodeStrict, with its
// line.
func decodeFile(file string, data []byte, sf *serverFile) error {
	shapeErr := checkShape(file, data)
	if shapeErr != nil && !errors.Is(shapeErr, errNotJSON) {
		return shapeErr
	}
	if err := decodeStrict(data, sf); err != nil {
		return &LoadError{File: file, Err: err}
	}
	if shapeErr != nil { // JSON to encoding/json, not to the shape check: refused all the same
		return &LoadError{File: file, Err: shapeErr}
	}
	return nil
}

// decodeStrict decodes a JSON object, reporting a syntax error with its line.
func decodeStrict(data []byte, v any) error {
	err := json.Unmarshal(data, v)
	var syn *json.SyntaxError
	var typ *json.UnmarshalTypeError
	switch {
	case err == nil:
		return nil
	case errors.As(err, &syn):
		return fmt.Errorf("not valid JSON: %v (line %d)", syn, lineOf(data, syn.Offset))
	case errors.As(err, &typ) && typ.Field == "":
		return fmt.Errorf("not a catalog: the file holds a JSON %s, want an object", typ.Value)
	case errors.As(err, &typ):
		return fmt.Errorf("field %s: want %s, got JSON %s", typ.Field, typ.Type, typ.Value)
	}
	return fmt.Errorf("not a catalog: %v", err)
}

func lineOf(data []byte, offset int64) int {
	offset = min(offset, int64(len(data)))
	return bytes.Count(data[:offset], []byte("\n")) + 1
}

// CheckServerName reports whether name is a valid server name under the
// separator sep (DefaultSeparator if empty): what every catalog file's
// "server" must be.
func CheckServerName(name, sep string) error {
	if sep == "" {
		sep = DefaultSeparator
	}
	_, err := serverName(&name, sep)
	return err
}

func serverName(name *string, sep string) (string, error) {
	switch {
	case name == nil || *name == "":
		return "", errors.New("missing: every catalog file names its server")
	case !serverNameRE().MatchString(*name):
		return "", fmt.Errorf("%q is not a server name (letters, digits, '_', '-', '.'; at most %d)", *name, ext.MaxServerNameChars)
	case strings.Contains(*name, sep):
		return "", fmt.Errorf("%q contains the name separator %q", *name, sep)
	}
	return *name, nil
}

func compactOrNil(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return nil
	}
	return b.Bytes()
}

// maxAboutRunes bounds a server's About.
const maxAboutRunes = 160

// FirstSentence is the first sentence of a description, on one line,
// without its final period, at most maxAboutRunes long (cut after a word):
// a server's About, and the one line by which mcpsearch requests draft
// tells a model an item's siblings.
func FirstSentence(s string) string {
	s = strings.Join(strings.Fields(s), " ")
	if i := strings.Index(s, ". "); i >= 0 {
		s = s[:i]
	}
	s = strings.TrimSuffix(s, ".")
	if r := []rune(s); len(r) > maxAboutRunes {
		cut := string(r[:maxAboutRunes])
		if i := strings.LastIndex(cut, " "); i > 0 {
			cut = cut[:i]
		}
		s = cut + "…"
	}
	return s
}
