package catalog

import (
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Requests. An item may carry what people ask for when they need it:
//
//	{"name": "create_issue", …, "_meta": {"io.github.mcpsearch/requests": ["open a ticket for the login bug", …]}}
//
// They are evidence for the index, written from the item's documentation
// by people who never saw an evaluation query, and never sent to clients: the
// loader takes them out of the object it keeps, which is served as the
// upstream listed it. They are checked like every field: an array of at
// most MaxRequestsPerItem distinct, non-blank strings, each of at most
// MaxRequestBytes bytes on one line.

// MetaRequests is the _meta key of the requests people make for an item.
const MetaRequests = "io.github.mcpsearch/requests"

// Limits on an item's requests: several times the six to eight a writer
// gives an item, each the length of a long chat message.
const (
	MaxRequestsPerItem = 32
	MaxRequestBytes    = 1 << 10
)

// itemRequests takes an item's requests out of its _meta (meta, from
// itemMeta): it returns them
// (none when the item has none) and the object without the key, or the
// field at fault.
func itemRequests(obj json.RawMessage, meta map[string]json.RawMessage) (requests []string, out json.RawMessage, field string, err error) {
	raw, ok := meta[MetaRequests]
	if !ok {
		return nil, obj, "", nil
	}
	field = "_meta." + MetaRequests
	requests, sub, err := parseRequests(raw)
	if err != nil {
		return nil, nil, field + sub, err
	}
	out, err = withoutMetaKey(obj, MetaRequests)
	return requests, out, field, err
}

// parseRequests checks and decodes an array of requests; it returns the
// index at fault ("[3]") with its error.
func parseRequests(raw json.RawMessage) ([]string, string, error) {
	var requests []string // valid UTF-8: a server file is checked whole first
	if err := json.Unmarshal(raw, &requests); err != nil || requests == nil {
		return nil, "", errors.New("want an array of strings (omit the key for none)")
	}
	if len(requests) == 0 {
		return nil, "", errors.New("an empty array: omit the key for none")
	}
	if len(requests) > MaxRequestsPerItem {
		return nil, "", fmt.Errorf("%d requests, over the limit of %d an item", len(requests), MaxRequestsPerItem)
	}
	seen := make(map[string]int, len(requests))
	for i, r := range requests {
		at := fmt.Sprintf("[%d]", i)
		if err := CheckRequest(r); err != nil {
			return nil, at, err
		}
		key := RequestKey(r)
		if j, dup := seen[key]; dup {
			return nil, at, fmt.Errorf("the same request as [%d]", j)
		}
		seen[key] = i
	}
	return requests, "", nil
}

// CheckRequest checks one request as the loader does: valid UTF-8, not
// blank, one line of printable text, at most MaxRequestBytes. Tools that
// write requests (mcpsearch requests draft) check theirs with it.
func CheckRequest(r string) error {
	if !utf8.ValidString(r) {
		return errors.New("not valid UTF-8")
	}
	if strings.TrimSpace(r) == "" {
		return errors.New("blank: a request says what someone asks")
	}
	return checkChars(r, MaxRequestBytes, textRune, "a request is one line of text: no control, line-breaking or bidirectional-override character")
}

// RequestKey is what two requests of an item must not share: the loader
// refuses an item whose requests differ only in case or white space.
func RequestKey(r string) string {
	return strings.ToLower(strings.Join(strings.Fields(r), " "))
}
