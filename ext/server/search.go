package server

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"strings"
	"unicode/utf8"

	"github.com/mcpsearch/mcpsearch/ext"
)

// SearchParams are the params of a */search request. The extension
// defines them, so a member it does not know is refused, not ignored.
type SearchParams struct {
	Query  string      `json:"query"`
	Cursor string      `json:"cursor,omitempty"`
	Limit  *Integer    `json:"limit,omitempty"`
	Filter *ext.Filter `json:"filter,omitempty"`
	// Meta is the request's _meta; the extension reads ext.MetaExplain from it.
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

// searchMethod answers the search method of kind k.
func searchMethod(k ext.Kind) handlerFunc {
	return func(ctx context.Context, h *Handler, req *request) (any, error) {
		p, err := decodeSearchParams(req.Params)
		if err != nil {
			return nil, err
		}
		return h.search(ctx, req, k, p, searchScope{bindAs: "search"})
	}
}

// searchScope is where a search looks and what its cursors are bound to:
// bindAs names the method (a search, a list with a query, meta-tool mode's
// list with a query: none pages another), servers the servers it keeps
// to (nil: every server the caller sees).
type searchScope struct {
	bindAs  string
	servers []string
}

// search answers the search p of kind k within sc: a select: query by
// the named items, any other by the searcher's ranking.
func (h *Handler) search(ctx context.Context, req *request, k ext.Kind, p *SearchParams, sc searchScope) (any, error) {
	if names, ok, err := parseSelect(p.Query); ok {
		if err != nil {
			return nil, err
		}
		return h.selectMethod(ctx, req, k, p, names, sc.keep())
	}
	q, bind, err := h.searchQuery(k, p, ext.AccessFrom(ctx), sc.bindAs)
	if err != nil {
		return nil, err
	}
	if sc.servers != nil {
		var inScope bool
		if q.Filter.Servers, inScope = withinScope(q.Filter.Servers, sc.servers); !inScope {
			return h.pageResult(req, k, &ext.Page{Hint: outOfScopeHint}, 0, bind, true)
		}
	}
	page, err := h.searcher.Search(ctx, q)
	if errors.Is(err, ext.ErrInvalidParams) {
		return nil, err // the catalog's refusal of the filter, said to the client as it is
	}
	if err != nil {
		return nil, fmt.Errorf("searching %s: %w", k.ResultKey(), err)
	}
	return h.pageResult(req, k, page, q.Offset+len(page.Items), bind, true)
}

// keep is the test a selected item passes: its server is in the scope.
func (sc searchScope) keep() func(ext.Hit) bool {
	if sc.servers == nil {
		return nil
	}
	return func(hit ext.Hit) bool { return slices.Contains(sc.servers, hit.Server) }
}

// withinScope is the servers a filter naming asked keeps to within scope
// (sorted): scope itself when asked names none; false when asked names
// none of scope's.
func withinScope(asked, scope []string) ([]string, bool) {
	if len(asked) == 0 {
		return scope, true
	}
	var kept []string
	for _, s := range asked {
		if slices.Contains(scope, s) {
			kept = append(kept, s)
		}
	}
	return kept, len(kept) > 0
}

// outOfScopeHint is the hint of a meta-tool mode list whose filter names
// only servers search_tools does not search: it names none of them.
const outOfScopeHint = "filter.servers names no server whose tools search_tools searches here"

// searchQuery validates p into an ext.Query for kind k and computes the binding
// its cursors carry: the method (bindAs), the query, the filter and what
// the caller may see.
func (h *Handler) searchQuery(k ext.Kind, p *SearchParams, a ext.Access, bindAs string) (ext.Query, [8]byte, error) {
	text := strings.TrimSpace(p.Query)
	if err := validateQueryText(text); err != nil {
		return ext.Query{}, [8]byte{}, err
	}
	limit, err := validateLimit(p.Limit)
	if err != nil {
		return ext.Query{}, [8]byte{}, err
	}
	filter := ext.Filter{}
	if p.Filter != nil {
		if err := checkServerNames(p.Filter.Servers); err != nil {
			return ext.Query{}, [8]byte{}, err
		}
		if err := annotationSizes(p.Filter.Annotations); err != nil {
			return ext.Query{}, [8]byte{}, err
		}
		filter = normalizeFilter(*p.Filter)
	}
	if n := len(filter.Servers); n > ext.MaxFilterServers {
		return ext.Query{}, [8]byte{}, fmt.Errorf("%w: filter names %d servers, at most %d are allowed", ext.ErrInvalidParams, n, ext.MaxFilterServers)
	}

	filterKey, _ := json.Marshal(filter) // maps marshal with sorted keys
	bind := binding(bindAs, string(k), text, string(filterKey), a.Key())
	explain, err := explainRequested(p.Meta)
	if err != nil {
		return ext.Query{}, [8]byte{}, err
	}
	offset := 0
	if p.Cursor != "" {
		if offset, err = h.cursors.decode(p.Cursor, bind); err != nil {
			return ext.Query{}, bind, err
		}
	}
	if offset+limit > ext.MaxSearchDepth {
		limit = max(0, ext.MaxSearchDepth-offset)
	}
	return ext.Query{Kind: k, Text: text, Filter: filter, Offset: offset, Limit: limit, Explain: explain}, bind, nil
}

func validateQueryText(text string) error {
	switch {
	case text == "":
		return fmt.Errorf("%w: query is empty", ext.ErrInvalidParams)
	case len(text) > ext.MaxQueryBytes:
		return fmt.Errorf("%w: query is %d bytes long, at most %d are allowed", ext.ErrInvalidParams, len(text), ext.MaxQueryBytes)
	case len(strings.Fields(text)) > ext.MaxQueryTerms:
		return fmt.Errorf("%w: query has %d words, at most %d are allowed", ext.ErrInvalidParams, len(strings.Fields(text)), ext.MaxQueryTerms)
	}
	return nil
}

func validateLimit(limit *Integer) (int, error) {
	if limit == nil {
		return ext.DefaultLimit, nil
	}
	if limit.value < 1 || limit.value > ext.MaxLimit {
		return 0, fmt.Errorf("%w: limit %s is not between 1 and %d", ext.ErrInvalidParams, limit, ext.MaxLimit)
	}
	return int(limit.value), nil
}

// normalizeFilter sorts and deduplicates the server list so that equal
// filters bind cursors equally.
// checkServerNames refuses a filter name longer than any server's, so
// that a filter costs at most ext.MaxFilterServers short names to copy,
// key and look up, whatever the body holds.
func checkServerNames(servers []string) error {
	for i, s := range servers {
		if n := utf8.RuneCountInString(s); n > ext.MaxServerNameChars {
			return fmt.Errorf("%w: field \"filter.servers[%d]\" is %d characters long; a server name has at most %d", ext.ErrInvalidParams, i, n, ext.MaxServerNameChars)
		}
	}
	return nil
}

func normalizeFilter(f ext.Filter) ext.Filter {
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

// listMethod answers the list method of kind k: with a query (SEP-1821,
// listquery.go), the search's answer to it; without, the catalog's items
// in order, a page at a time.
func listMethod(k ext.Kind) handlerFunc {
	return func(ctx context.Context, h *Handler, req *request) (any, error) {
		q, ok, err := decodeListQuery(req.Params)
		if err != nil {
			return nil, err
		}
		if ok {
			return h.search(ctx, req, k, q, searchScope{bindAs: "list with a query"})
		}
		return h.plainList(ctx, req, k)
	}
}

// plainList answers a list of kind k without a query.
func (h *Handler) plainList(ctx context.Context, req *request, k ext.Kind) (any, error) {
	p, err := decodeParams[ListParams](req.Params)
	if err != nil {
		return nil, err
	}
	bind := binding("list", string(k), ext.AccessFrom(ctx).Key())
	offset := 0
	if p.Cursor != "" {
		if offset, err = h.cursors.decode(p.Cursor, bind); err != nil {
			return nil, err
		}
	}
	page, err := h.searcher.List(ctx, k, offset, h.pageSize)
	if err != nil {
		return nil, fmt.Errorf("listing %s: %w", k.ResultKey(), err)
	}
	return h.pageResult(req, k, page, offset+len(page.Items), bind, false)
}

// pageResult renders a page in the shape of the kind's list result, each
// item's _meta extended with its server (and score, for searches).
func (h *Handler) pageResult(req *request, k ext.Kind, page *ext.Page, next int, bind [8]byte, scored bool) (*pageResult, error) {
	r := h.newPageResult(req, k.ResultKey(), make([]json.RawMessage, len(page.Items)))
	for i, hit := range page.Items {
		meta := map[string]any{ext.MetaServer: hit.Server}
		if scored {
			meta[ext.MetaScore] = roundScore(hit.Score)
		}
		if hit.Explain != nil {
			meta[ext.MetaExplain] = hit.Explain
		}
		obj, err := withMeta(hit.Object, meta)
		if err != nil {
			return nil, fmt.Errorf("item %d of page: %w", i, err)
		}
		r.items[i] = obj
	}
	if page.Hint != "" {
		r.addMeta(ext.MetaHint, page.Hint)
	}
	paged := bind != [8]byte{} // a select answer (no binding) has one page
	cut := h.fitPage(req, r, page.Hint, paged)
	switch {
	case cut.rest > 0 && paged:
		r.nextCursor = h.cursors.encode(bind, next-cut.rest)
	case page.More && (!scored || next < ext.MaxSearchDepth):
		r.nextCursor = h.cursors.encode(bind, next)
	}
	return r, nil
}

func (r *pageResult) addMeta(key string, value any) {
	if r.meta == nil {
		r.meta = map[string]any{}
	}
	r.meta[key] = value
}

// newPageResult is a page result of items under key, with the members of
// the request's protocol era.
func (h *Handler) newPageResult(req *request, key string, items []json.RawMessage) *pageResult {
	extra, meta := h.modernFields(req)
	return &pageResult{key: key, items: items, extra: extra, meta: meta}
}

// pageResult is a list or search result: its items under their kind's key,
// then nextCursor, then any protocol extras, in that order on the wire.
type pageResult struct {
	key        string
	items      []json.RawMessage
	nextCursor string
	meta       map[string]any // the result's _meta
	extra      map[string]any // the members of a 2026-07-28 result
}

func (r *pageResult) MarshalJSON() ([]byte, error) {
	return r.appendJSON(make([]byte, 0, r.size()))
}

// appendJSON appends the result's JSON to b.
func (r *pageResult) appendJSON(b []byte) ([]byte, error) {
	key, _ := json.Marshal(r.key)
	b = append(append(append(b, '{'), key...), ":["...)
	for i, it := range r.items {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, it...)
	}
	b = append(b, ']')
	if r.nextCursor != "" {
		b = append(append(append(b, `,"nextCursor":"`...), r.nextCursor...), '"') // base64url: nothing to escape
	}
	extras := r.extra
	if len(r.meta) > 0 {
		extras = maps.Clone(r.extra)
		if extras == nil {
			extras = map[string]any{}
		}
		extras["_meta"] = r.meta
	}
	if len(extras) == 0 {
		return append(b, '}'), nil
	}
	extra, err := json.Marshal(extras)
	if err != nil {
		return nil, err
	}
	return append(append(b, ','), extra[1:]...), nil // the object's members and its closing brace
}

// size is about the length of the result's JSON: its items' and a little
// more for the members beside them.
func (r *pageResult) size() int {
	n := len(r.key) + len(r.nextCursor) + 256
	for _, it := range r.items {
		n += len(it) + 1
	}
	return n
}

func roundScore(f float64) float64 {
	return float64(int64(f*10000+0.5)) / 10000
}

// withMeta returns obj with the entries of meta added to its _meta object.
// An object without _meta keeps its bytes and key order; the entries an
// object's _meta has keep theirs.
func withMeta(obj json.RawMessage, meta map[string]any) (json.RawMessage, error) {
	trimmed := bytes.Trim(obj, jsonWhiteSpace)
	if len(trimmed) < 2 || trimmed[0] != '{' || trimmed[len(trimmed)-1] != '}' {
		return nil, errors.New("stored object is not a JSON object")
	}
	if have := memberValue(obj, "_meta"); len(have) > 0 && have[0] == '{' {
		var m map[string]json.RawMessage
		if err := json.Unmarshal(have, &m); err != nil {
			return nil, fmt.Errorf("stored object: %w", err)
		}
		return mergeMeta(obj, m, meta)
	}
	add, err := json.Marshal(meta)
	if err != nil {
		return nil, err
	}
	rest := bytes.TrimLeft(trimmed[1:], jsonWhiteSpace)
	out := make([]byte, 0, len(obj)+len(add)+16)
	out = append(out, `{"_meta":`...)
	out = append(out, add...)
	if len(rest) > 0 && rest[0] != '}' {
		out = append(out, ',')
	}
	return append(out, rest...), nil
}

func mergeMeta(obj json.RawMessage, have map[string]json.RawMessage, add map[string]any) (json.RawMessage, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(obj, &m); err != nil {
		return nil, err
	}
	for k, v := range add {
		value, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		have[k] = value
	}
	metaJSON, err := json.Marshal(have)
	if err != nil {
		return nil, err
	}
	m["_meta"] = metaJSON
	return json.Marshal(m)
}
