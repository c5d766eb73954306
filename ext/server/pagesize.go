package server

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext"
)

// Answers are bounded in bytes ([Options.MaxResponseBytes]), so that no
// page outgrows what the deployment can carry (Lambda's 6 MB response, in
// which the body travels as a JSON string). A page whose items would pass
// the limit is cut short, with a nextCursor to the first item left out and
// _meta[ext.MetaTruncated] saying so; an item larger than the limit on its
// own is left out, named in the same note. Any other answer over the limit
// (which the bounds on hints, messages and forwarded results should make
// impossible) is replaced by an error that says so.

// DefaultMaxResponseBytes bounds an answer's body unless configured: a
// forwarded result's own limit (3,000,000 bytes) and room for the
// envelope. Twice it (Lambda carries the body as a JSON string, whose
// escapes at most double it) and the response's headers fit Lambda's
// limit of 6,291,556 bytes.
const DefaultMaxResponseBytes = 3_100_000

// envelopeReserve is kept out of a page's budget for the members beside
// its items: jsonrpc, nextCursor, the protocol's extras and the notes.
const envelopeReserve = 16 << 10

// pageCut is what fitPage left out: the items after the last kept (rest),
// and the items too large for any page (dropped, by name).
type pageCut struct {
	rest    int
	dropped []string
}

// fitPage cuts the items of r to the response budget and notes what it
// cut in r's _meta; paged says whether a cursor will go on with the rest
// (a select answer has one page).
func (h *Handler) fitPage(req *request, r *pageResult, hint string, paged bool) pageCut {
	budget := h.maxResponseBytes - envelopeReserve - len(req.ID) - len(hint)
	var cut pageCut
	kept, size := r.items[:0], 0
	for i, item := range r.items {
		if len(item)+1 > budget {
			cut.dropped = append(cut.dropped, fmt.Sprintf("%s (%d bytes)", itemName(item), len(item)))
			continue
		}
		if size+len(item)+1 > budget {
			cut.rest = len(r.items) - i
			break
		}
		kept, size = append(kept, item), size+len(item)+1
	}
	if cut.rest > 0 || len(cut.dropped) > 0 {
		r.addMeta(ext.MetaTruncated, cut.note(len(kept), h.maxResponseBytes, paged))
	}
	r.items = kept
	return cut
}

func (c pageCut) note(kept, limit int, paged bool) string {
	var parts []string
	switch {
	case c.rest > 0 && paged:
		parts = append(parts, fmt.Sprintf("this page holds %d items: the next %d would pass the response limit of %d bytes, and nextCursor goes on with them", kept, c.rest, limit))
	case c.rest > 0:
		parts = append(parts, fmt.Sprintf("this answer holds %d items: the last %d would pass the response limit of %d bytes; select them on their own", kept, c.rest, limit))
	}
	if len(c.dropped) > 0 {
		parts = append(parts, fmt.Sprintf("left out, each larger than the response limit of %d bytes on its own: %s", limit, strings.Join(c.dropped, ", ")))
	}
	return strings.Join(parts, "; ")
}

// itemName is how a note names an item: its name, or its URI or URI
// template, quoted and cut short.
func itemName(obj json.RawMessage) string {
	for _, key := range []string{"name", "uri", "uriTemplate"} {
		var name string
		if json.Unmarshal(memberValue(obj, key), &name) == nil && name != "" {
			return ext.QuoteShort(name)
		}
	}
	return "an item"
}

// fitAnswer returns body, the answer to the request id, or, when it is
// larger than the response limit, the error that says so in its place.
func (h *Handler) fitAnswer(id json.RawMessage, body []byte) []byte {
	if len(body) <= h.maxResponseBytes {
		return body
	}
	h.logger.Error("answer over the response limit", "bytes", len(body), "limit", h.maxResponseBytes)
	wire := &ext.Error{Code: ext.CodeInternalError, Message: fmt.Sprintf(
		"the answer is %d bytes, larger than the response limit of %d bytes", len(body), h.maxResponseBytes)}
	if len(id) == 0 || len(id) > ext.MaxEchoBytes {
		id = json.RawMessage("null")
	}
	out, _ := encodeJSON(response{JSONRPC: "2.0", ID: id, Error: wire})
	return out
}
