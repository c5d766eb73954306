package searchclient

import (
	"encoding/json"
	"fmt"
	"sync/atomic"
)

var requestIDs atomic.Int64

// nextID numbers the search requests; mcp-go numbers its own from 1, and
// over HTTP each request gets its own response, so the ranges may meet.
func nextID() int64 { return 1<<40 + requestIDs.Add(1) }

// decodePage reads a */search result: the items under the kind's key, each
// with its score and server in _meta.
func (c *Client) decodePage(k Kind, raw json.RawMessage) (*Page, error) {
	var result map[string]json.RawMessage
	if err := json.Unmarshal(raw, &result); err != nil {
		return nil, fmt.Errorf("decoding %s result: %w", k.Method(), err)
	}
	var objects []json.RawMessage
	if err := json.Unmarshal(result[string(k)], &objects); err != nil && result[string(k)] != nil {
		return nil, fmt.Errorf("decoding %s result: %q: %w", k.Method(), k, err)
	}
	page := &Page{}
	json.Unmarshal(result["nextCursor"], &page.NextCursor)
	var meta map[string]any
	if json.Unmarshal(result["_meta"], &meta) == nil {
		page.Hint, _ = meta["io.github.mcpsearch/hint"].(string)
	}
	for _, obj := range objects {
		item, err := c.remoteItem(obj)
		if err != nil {
			return nil, fmt.Errorf("decoding %s result: %w", k.Method(), err)
		}
		page.Items = append(page.Items, item)
	}
	return page, nil
}

func (c *Client) remoteItem(obj json.RawMessage) (Item, error) {
	var head struct {
		Name string `json:"name"`
		URI  string `json:"uri"`
		Meta struct {
			Score  float64 `json:"io.github.mcpsearch/score"`
			Server string  `json:"io.github.mcpsearch/server"`
		} `json:"_meta"`
	}
	if err := json.Unmarshal(obj, &head); err != nil {
		return Item{}, err
	}
	item := Item{Name: head.Name, Object: obj, Score: head.Meta.Score, Server: head.Meta.Server}
	if item.Name == "" {
		item.Name = head.URI
	}
	if item.Server == "" {
		item.Server = c.name
	}
	return item, nil
}
