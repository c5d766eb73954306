package server

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext"
)

// Lists with a query: SEP-1821 ("Dynamic Tool Discovery", a draft of the
// MCP specification, modelcontextprotocol/modelcontextprotocol#1821) lets
// tools/list take an optional query (and metadata), answered by the tools
// that fit; a server that does says so by capabilities.tools.dynamic. This
// server takes it on the four lists: a list whose params hold a query
// answers exactly what the kind's */search method answers for the same
// params (query, limit, cursor, filter, the explain option in _meta): the
// same ranking, visibility, hints and select: queries, checked by the same
// bounds, a nextCursor to the next page. Its cursors are bound to the list
// with that query: they page neither a plain list nor another query, nor a
// search, and no other cursor pages them. metadata, which the draft leaves
// to each server, must be an object and is not read. A list whose query is
// absent, null or only white space is the plain list, as before, whatever
// else its params hold (a list takes any member, as MCP's schema allows).
// The draft may change; so may this.

// listQueryParams are the params of a */list request with a query.
type listQueryParams struct {
	SearchParams
	Metadata json.RawMessage `json:"metadata,omitempty"`
}

// listQueryMember is the query member of a */list request's params.
type listQueryMember struct {
	Query *string `json:"query"`
}

// decodeListQuery decodes the params of a */list request with a query as
// those of a search; ok is false when the request has no query.
func decodeListQuery(raw json.RawMessage) (p *SearchParams, ok bool, err error) {
	q, err := decodeParams[listQueryMember](raw)
	if err != nil {
		return nil, false, err
	}
	if q.Query == nil || strings.TrimSpace(*q.Query) == "" {
		return nil, false, nil
	}
	if err := annotationsCount(raw); err != nil {
		return nil, true, err
	}
	lp, err := decodeParams[listQueryParams](raw)
	if err != nil {
		return nil, true, err
	}
	if err := unknownMember("filter", memberNames(memberValue(raw, "filter")), filterMembers); err != nil {
		return nil, true, err
	}
	if m := lp.Metadata; len(m) > 0 && m[0] != '{' && string(m) != "null" {
		return nil, true, fmt.Errorf("%w: field \"metadata\" must be an object, not %s", ext.ErrInvalidParams, jsonKind(m))
	}
	return &lp.SearchParams, true, nil
}
