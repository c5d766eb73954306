package server

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
)

// request is the envelope of one JSON-RPC message, and what the
// dispatcher learns of it: its protocol era and its method's table entry.
type request struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id,omitempty"`
	Method  string          `json:"method"`
	Params  json.RawMessage `json:"params,omitempty"`

	era      era
	info     *methodInfo
	deadline time.Time // of the request's work: its body was read from the start of it
}

func (r *request) isNotification() bool { return len(r.ID) == 0 }

// response is one JSON-RPC response.
type response struct {
	JSONRPC string          `json:"jsonrpc"`
	ID      json.RawMessage `json:"id"`
	Result  any             `json:"result,omitempty"`
	Error   *ext.Error      `json:"error,omitempty"`
}

// envelopeMembers are the members a JSON-RPC 2.0 request or notification
// may have; result and error belong to responses only.
var envelopeMembers = []string{"jsonrpc", "id", "method", "params"}

// jsonWhiteSpace is the white space JSON allows around a value (RFC 8259,
// section 2): not a form feed, a vertical tab or a no-break space, which
// bytes.TrimSpace would also take away from a body that is then not JSON.
const jsonWhiteSpace = " \t\r\n"

// parseRequest decodes one JSON-RPC message and checks its envelope as
// JSON-RPC 2.0 and MCP define it: "jsonrpc" is "2.0", "method" a non-empty
// string, "id" (absent in a notification) a string or an integer, "params"
// absent, null, an object or an array, and no other member. What it refuses
// is -32700 or -32600. The body is checked by one scan (scanMessage: its
// syntax, nesting, number of values and repeated names) before anything
// decodes it. The id of the request is kept whenever it is valid, so that
// the error can carry it. Batches are refused: every protocol revision this
// server speaks removed them.
func parseRequest(body []byte) (*request, error) {
	trimmed := bytes.Trim(body, jsonWhiteSpace)
	if len(trimmed) > 0 && trimmed[0] == '[' {
		return &request{}, fmt.Errorf("%w: JSON-RPC batches are not supported (protocol revisions %s removed batching); send one message per request",
			ext.ErrInvalidRequest, strings.Join(SupportedProtocolVersions, ", "))
	}
	top, err := scanMessage(trimmed)
	if err != nil {
		return &request{}, err
	}
	if trimmed[0] != '{' {
		return &request{}, fmt.Errorf("%w: body is not a JSON-RPC message object", ext.ErrInvalidRequest)
	}
	members := make(map[string]json.RawMessage, len(top))
	for _, m := range top {
		members[m.name] = m.value
	}
	req := &request{}
	return req, req.fill(members)
}

// fill sets r from the members of a message, checking each.
func (r *request) fill(members map[string]json.RawMessage) error {
	if err := r.fillID(members["id"]); err != nil {
		return err
	}
	if string(members["jsonrpc"]) != `"2.0"` {
		return fmt.Errorf("%w: jsonrpc must be \"2.0\"", ext.ErrInvalidRequest)
	}
	if err := r.fillMethod(members); err != nil {
		return err
	}
	if err := r.fillParams(members["params"]); err != nil {
		return err
	}
	for name := range members {
		if !slices.Contains(envelopeMembers, name) {
			return fmt.Errorf("%w: unknown member %s in the message (a JSON-RPC 2.0 request has %s)", ext.ErrInvalidRequest, ext.QuoteShort(name), strings.Join(envelopeMembers, ", "))
		}
	}
	if _, bad := badText(members["method"]); bad {
		return fmt.Errorf("%w: method is not valid UTF-8", ext.ErrInvalidRequest)
	}
	return nil
}

// fillID keeps a valid id exactly as it was sent, to be echoed byte for
// byte: a string, or a number without a fractional part in any spelling
// (7, 7.0, 7e0, and integers too large for a float64).
func (r *request) fillID(raw json.RawMessage) error {
	if raw == nil {
		return nil
	}
	switch {
	case raw[0] == '"':
		if _, bad := badText(raw); bad {
			return fmt.Errorf("%w: id is not valid UTF-8", ext.ErrInvalidRequest)
		}
	case raw[0] == '-' || (raw[0] >= '0' && raw[0] <= '9'):
		if !isIntegral(string(raw)) {
			return fmt.Errorf("%w: id %s has a fractional part: it must be a string or an integer", ext.ErrInvalidRequest, raw)
		}
	default:
		return fmt.Errorf("%w: id must be a string or an integer, not %s", ext.ErrInvalidRequest, jsonKind(raw))
	}
	r.ID = raw
	return nil
}

// fillMethod sets the method and refuses a message that is no request:
// one without a method, and a response (which carries result or error;
// this server sends no requests, so no response answers one of its).
func (r *request) fillMethod(members map[string]json.RawMessage) error {
	_, hasResult := members["result"]
	_, hasError := members["error"]
	raw, hasMethod := members["method"]
	switch {
	case !hasMethod && (hasResult || hasError):
		r.ID = nil // not the id of a request: an error with it would answer the client's own request
		return fmt.Errorf("%w: a JSON-RPC response answers nothing here: this server sends no requests", ext.ErrInvalidRequest)
	case !hasMethod:
		return fmt.Errorf("%w: message has no method", ext.ErrInvalidRequest)
	case hasResult || hasError:
		return fmt.Errorf("%w: a request carries no result or error", ext.ErrInvalidRequest)
	case raw[0] != '"' || json.Unmarshal(raw, &r.Method) != nil:
		return fmt.Errorf("%w: method must be a string, not %s", ext.ErrInvalidRequest, jsonKind(raw))
	case r.Method == "":
		return fmt.Errorf("%w: method is empty", ext.ErrInvalidRequest)
	}
	return nil
}

// fillParams keeps params that are absent, null, an object or an array
// (the methods decide what they take).
func (r *request) fillParams(raw json.RawMessage) error {
	if raw == nil || string(raw) == "null" {
		return nil
	}
	if raw[0] != '{' && raw[0] != '[' {
		return fmt.Errorf("%w: params must be an object, not %s", ext.ErrInvalidRequest, jsonKind(raw))
	}
	r.Params = raw
	return nil
}

// checkParams refuses, with -32602, params no MCP method takes: an array
// (every method takes named params), or text that is not valid UTF-8 (raw
// bytes or an unpaired surrogate escape, which decoding would silently
// turn into U+FFFD), naming the field.
func (r *request) checkParams() error {
	if len(r.Params) > 0 && r.Params[0] == '[' {
		return fmt.Errorf("%w: params must be an object, not an array", ext.ErrInvalidParams)
	}
	if where, bad := badText(r.Params); bad {
		return fmt.Errorf("%w: %s is not valid UTF-8 (invalid bytes or an unpaired surrogate)", ext.ErrInvalidParams, where)
	}
	return nil
}

// jsonKind names the type of a JSON value for messages.
func jsonKind(raw json.RawMessage) string {
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}
