package searchclient

import (
	"encoding/json"
	"fmt"
	"sync/atomic"

	"github.com/mcpsearch/mcpsearch/ext"
)

var requestIDs atomic.Int64

// nextID numbers the search requests; mcp-go numbers its own from 1, and
// over HTTP each request gets its own response, so the ranges may meet.
func nextID() int64 { return 1<<40 + requestIDs.Add(1) }

// decodePage reads a */search result: the items under the kind's key, each
// with its score and server in _meta.
func (c *Client) decodePage(k ext.Kind, raw json.RawMessage) (*Page, error) {
	var result map[string]json.RawMessage
	if err := json.Unmarshal(raw, &result); err != nil {
		return nil, fmt.Errorf("decoding %s result: %w", k.SearchMethod(), err)
	}
	key := k.ResultKey()
	var objects []json.RawMessage
	if err := json.Unmarshal(result[key], &objects); err != nil && result[key] != nil {
		return nil, fmt.Errorf("decoding %s result: %q: %w", k.SearchMethod(), key, err)
	}
	page := &Page{}
	json.Unmarshal(result["nextCursor"], &page.NextCursor)
	var meta map[string]any
	if json.Unmarshal(result["_meta"], &meta) == nil {
		page.Hint, _ = meta[ext.MetaHint].(string)
	}
	for _, obj := range objects {
		item, err := c.item(obj)
		if err != nil {
			return nil, fmt.Errorf("decoding %s result: %w", k.SearchMethod(), err)
		}
		page.Items = append(page.Items, item)
	}
	return page, nil
}

// item reads an MCP object of a search or list result: its name (or URI),
// and the score and server its _meta carries; the server defaults to the
// client's name.
func (c *Client) item(obj json.RawMessage) (Item, error) {
	var head struct {
		Name string                     `json:"name"`
		URI  string                     `json:"uri"`
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(obj, &head); err != nil {
		return Item{}, err
	}
	item := Item{Name: head.Name, Object: obj}
	if err := decodeMeta(head.Meta, ext.MetaScore, &item.Score); err != nil {
		return Item{}, err
	}
	if err := decodeMeta(head.Meta, ext.MetaServer, &item.Server); err != nil {
		return Item{}, err
	}
	if item.Name == "" {
		item.Name = head.URI
	}
	if item.Server == "" {
		item.Server = c.name
	}
	return item, nil
}

// decodeMeta decodes the _meta entry key, if present, into v.
func decodeMeta(meta map[string]json.RawMessage, key string, v any) error {
	raw, ok := meta[key]
	if !ok {
		return nil
	}
	return json.Unmarshal(raw, v)
}
