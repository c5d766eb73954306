package ext

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
)

// method answers one JSON-RPC request from the catalog.
type method func(ctx context.Context, s *Server, params json.RawMessage) (result, error)

// result is the result of a method, marshalled as the JSON-RPC result.
type result interface {
	// modernize adds what a 2026-07-28 result of method carries.
	modernize(s *Server, method string)
}

// methods is the whole protocol surface the extension answers itself.
// Everything else goes to mcp-go.
var methods = map[string]method{
	"tools/search":               searchMethod(KindTool),
	"prompts/search":             searchMethod(KindPrompt),
	"resources/search":           searchMethod(KindResource),
	"resources/templates/search": searchMethod(KindResourceTemplate),
	"tools/list":                 listMethod(KindTool),
	"prompts/list":               listMethod(KindPrompt),
	"resources/list":             listMethod(KindResource),
	"resources/templates/list":   listMethod(KindResourceTemplate),
	"tools/call":                 callMethod(KindTool),
	"prompts/get":                callMethod(KindPrompt),
	"resources/read":             readMethod,
}

// SearchMethods lists the search methods, as advertised.
var SearchMethods = []string{"tools/search", "prompts/search", "resources/search", "resources/templates/search"}

// isListMethod reports whether name is one of the list methods, whose
// results carry caching hints in protocol 2026-07-28.
func isListMethod(name string) bool { return strings.HasSuffix(name, "/list") }

// SearchParams are the params of a */search request. The extension
// defines them, so a member it does not know is refused, not ignored.
type SearchParams struct {
	Query  string   `json:"query"`
	Cursor string   `json:"cursor,omitempty"`
	Limit  *Integer `json:"limit,omitempty"`
	Filter *Filter  `json:"filter,omitempty"`
	// Meta is the request's _meta; the extension reads MetaExplain from it.
	Meta map[string]json.RawMessage `json:"_meta,omitempty"`
}

// The members of SearchParams and of its filter, as sent.
var (
	searchParamsMembers = []string{"query", "limit", "cursor", "filter", "_meta"}
	filterMembers       = []string{"servers", "annotations"}
)

// ListParams are the params of a */list request.
type ListParams struct {
	Cursor string `json:"cursor,omitempty"`
}

func searchMethod(k Kind) method {
	return func(ctx context.Context, s *Server, raw json.RawMessage) (result, error) {
		p, err := decodeSearchParams(raw)
		if err != nil {
			return nil, err
		}
		q, bind, err := s.searchQuery(k, p, AccessFrom(ctx))
		if err != nil {
			return nil, err
		}
		page, err := s.catalog.Search(ctx, q)
		if errors.Is(err, ErrInvalidParams) {
			return nil, err // the catalog's refusal of the filter, said to the client as it is
		}
		if err != nil {
			return nil, fmt.Errorf("searching %s: %w", k.ResultKey(), err)
		}
		return s.pageResult(k, page, q.Offset+len(page.Items), bind, true)
	}
}

// searchQuery validates p into a Query for kind k and computes the binding
// its cursors carry: the query, the filter and what the caller may see.
func (s *Server) searchQuery(k Kind, p *SearchParams, a Access) (Query, [8]byte, error) {
	text := strings.TrimSpace(p.Query)
	if err := validateQueryText(text); err != nil {
		return Query{}, [8]byte{}, err
	}
	limit, err := validateLimit(p.Limit)
	if err != nil {
		return Query{}, [8]byte{}, err
	}
	filter := Filter{}
	if p.Filter != nil {
		filter = normalizeFilter(*p.Filter)
	}
	filterKey, _ := json.Marshal(filter) // maps marshal with sorted keys
	bind := binding("search", string(k), text, string(filterKey), a.key())
	explain, err := explainRequested(p.Meta)
	if err != nil {
		return Query{}, [8]byte{}, err
	}
	offset := 0
	if p.Cursor != "" {
		if offset, err = s.cursors.decode(p.Cursor, bind); err != nil {
			return Query{}, bind, err
		}
	}
	if offset+limit > MaxSearchDepth {
		limit = max(0, MaxSearchDepth-offset)
	}
	return Query{Kind: k, Text: text, Filter: filter, Offset: offset, Limit: limit, Explain: explain}, bind, nil
}

func validateQueryText(text string) error {
	switch {
	case text == "":
		return fmt.Errorf("%w: query is empty", ErrInvalidParams)
	case len(text) > MaxQueryBytes:
		return fmt.Errorf("%w: query is %d bytes long, at most %d are allowed", ErrInvalidParams, len(text), MaxQueryBytes)
	case len(strings.Fields(text)) > MaxQueryTerms:
		return fmt.Errorf("%w: query has %d words, at most %d are allowed", ErrInvalidParams, len(strings.Fields(text)), MaxQueryTerms)
	}
	return nil
}

func validateLimit(limit *Integer) (int, error) {
	if limit == nil {
		return DefaultLimit, nil
	}
	if limit.value < 1 || limit.value > MaxLimit {
		return 0, fmt.Errorf("%w: limit %s is not between 1 and %d", ErrInvalidParams, limit, MaxLimit)
	}
	return int(limit.value), nil
}

// normalizeFilter sorts and deduplicates the server list so that equal
// filters bind cursors equally.
func normalizeFilter(f Filter) Filter {
	servers := slices.Clone(f.Servers)
	slices.Sort(servers)
	f.Servers = slices.Compact(servers)
	if len(f.Servers) == 0 {
		f.Servers = nil
	}
	if len(f.Annotations) == 0 {
		f.Annotations = nil
	}
	return f
}

func listMethod(k Kind) method {
	return func(ctx context.Context, s *Server, raw json.RawMessage) (result, error) {
		if k == KindTool && s.meta != nil {
			return s.meta.list(ctx, s, raw)
		}
		p, err := decodeParams[ListParams](raw)
		if err != nil {
			return nil, err
		}
		bind := binding("list", string(k), AccessFrom(ctx).key())
		offset := 0
		if p.Cursor != "" {
			if offset, err = s.cursors.decode(p.Cursor, bind); err != nil {
				return nil, err
			}
		}
		page, err := s.catalog.List(ctx, k, offset, s.pageSize)
		if err != nil {
			return nil, fmt.Errorf("listing %s: %w", k.ResultKey(), err)
		}
		return s.pageResult(k, page, offset+len(page.Items), bind, false)
	}
}

// pageResult renders a page in the shape of the kind's list result, each
// item's _meta extended with its server (and score, for searches).
func (s *Server) pageResult(k Kind, page *Page, next int, bind [8]byte, scored bool) (*pageResult, error) {
	r := &pageResult{key: k.ResultKey(), items: make([]json.RawMessage, len(page.Items))}
	for i, h := range page.Items {
		meta := map[string]any{MetaServer: h.Server}
		if scored {
			meta[MetaScore] = roundScore(h.Score)
		}
		if h.Explain != nil {
			meta[MetaExplain] = h.Explain
		}
		obj, err := withMeta(h.Object, meta)
		if err != nil {
			return nil, fmt.Errorf("item %d of page: %w", i, err)
		}
		r.items[i] = obj
	}
	if page.More && (!scored || next < MaxSearchDepth) {
		r.nextCursor = s.cursors.encode(bind, next)
	}
	if page.Hint != "" {
		r.meta = map[string]any{MetaHint: page.Hint}
	}
	return r, nil
}

// pageResult is a list or search result: its items under their kind's key,
// then nextCursor, then any protocol extras, in that order on the wire.
type pageResult struct {
	key        string
	items      []json.RawMessage
	nextCursor string
	meta       map[string]any // the result's _meta
	extra      map[string]any
}

func (r *pageResult) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	key, _ := json.Marshal(r.key)
	b.WriteString("{")
	b.Write(key)
	b.WriteString(":[")
	for i, it := range r.items {
		if i > 0 {
			b.WriteByte(',')
		}
		b.Write(it)
	}
	b.WriteByte(']')
	if r.nextCursor != "" {
		b.WriteString(`,"nextCursor":"` + r.nextCursor + `"`) // base64url: nothing to escape
	}
	extras := r.extra
	if len(r.meta) > 0 {
		extras = maps.Clone(r.extra)
		if extras == nil {
			extras = map[string]any{}
		}
		extras["_meta"] = r.meta
	}
	if len(extras) > 0 {
		extra, err := json.Marshal(extras)
		if err != nil {
			return nil, err
		}
		b.WriteByte(',')
		b.Write(extra[1:]) // the object's members and its closing brace
		return b.Bytes(), nil
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// Keys of the _meta entries the extension adds to items.
const (
	MetaScore  = "io.github.mcpsearch/score"
	MetaServer = "io.github.mcpsearch/server"
	MetaHint   = "io.github.mcpsearch/hint" // on a result: why no item fits
)

func roundScore(f float64) float64 {
	return float64(int64(f*10000+0.5)) / 10000
}

// withMeta returns obj with the entries of meta added to its _meta object.
// An object without _meta keeps its bytes and key order.
func withMeta(obj json.RawMessage, meta map[string]any) (json.RawMessage, error) {
	var probe struct {
		Meta map[string]any `json:"_meta"`
	}
	if err := json.Unmarshal(obj, &probe); err != nil {
		return nil, fmt.Errorf("stored object: %w", err)
	}
	if probe.Meta != nil {
		return mergeMeta(obj, probe.Meta, meta)
	}
	add, err := json.Marshal(meta)
	if err != nil {
		return nil, err
	}
	trimmed := bytes.TrimLeft(obj, " \t\r\n")
	rest := bytes.TrimLeft(trimmed[1:], " \t\r\n")
	out := make([]byte, 0, len(obj)+len(add)+16)
	out = append(out, `{"_meta":`...)
	out = append(out, add...)
	if len(rest) > 0 && rest[0] != '}' {
		out = append(out, ',')
	}
	return append(out, rest...), nil
}

func mergeMeta(obj json.RawMessage, have, add map[string]any) (json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(obj, &m); err != nil {
		return nil, err
	}
	for k, v := range add {
		have[k] = v
	}
	metaJSON, err := json.Marshal(have)
	if err != nil {
		return nil, err
	}
	m["_meta"] = metaJSON
	return json.Marshal(m)
}
