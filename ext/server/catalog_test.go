package server

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext"
)

// memCatalog is an in-memory ext.Searcher for tests: it scores an item by the
// number of query words in its object text.
type memCatalog struct {
	version string
	items   map[ext.Kind][]ext.Hit
	fail    error // returned by every call when set
	// before, when set, runs at the start of every Search: tests make a
	// search slow, blocked or panicking with it.
	before func(ctx context.Context)
}

var _ ext.Searcher = (*memCatalog)(nil)

func newMemCatalog(version string, tools int) *memCatalog {
	c := &memCatalog{version: version, items: map[ext.Kind][]ext.Hit{}}
	for i := range tools {
		c.add(ext.KindTool, "srv", fmt.Sprintf(`{"name":"srv__tool_%03d","description":"tool number %d %s","inputSchema":{"type":"object"}}`, i, i, words[i%len(words)]))
	}
	c.add(ext.KindPrompt, "srv", `{"name":"srv__summarize","description":"summarize a document"}`)
	c.add(ext.KindResource, "srv", `{"uri":"file:///readme.md","name":"readme","description":"the project readme"}`)
	c.add(ext.KindResourceTemplate, "srv", `{"uriTemplate":"file:///{path}","name":"files","description":"any project file"}`)
	return c
}

var words = []string{"screenshot", "merge", "deploy", "query", "email"}

func (c *memCatalog) add(k ext.Kind, server, obj string) {
	c.items[k] = append(c.items[k], ext.Hit{Object: json.RawMessage(obj), Server: server})
}

func (c *memCatalog) Version() string { return c.version }

func (c *memCatalog) Search(ctx context.Context, q ext.Query) (*ext.Page, error) {
	if c.before != nil {
		c.before(ctx)
	}
	if c.fail != nil {
		return nil, c.fail
	}
	if _, bad := q.Filter.Annotations["bad"]; bad {
		return nil, fmt.Errorf("%w: filter.annotations.bad is not supported", ext.ErrInvalidParams)
	}
	var hits []ext.Hit
	for _, h := range c.items[q.Kind] {
		score := 0
		for _, w := range strings.Fields(strings.ToLower(q.Text)) {
			score += strings.Count(strings.ToLower(string(h.Object)), w)
		}
		if score > 0 && (len(q.Filter.Servers) == 0 || slices.Contains(q.Filter.Servers, h.Server)) {
			h.Score = float64(score)
			if q.Explain {
				h.Explain = map[string]any{"summary": fmt.Sprintf("%d query words in the object", score)}
			}
			hits = append(hits, h)
		}
	}
	slices.SortStableFunc(hits, func(a, b ext.Hit) int { return int(b.Score - a.Score) })
	return page(hits, q.Offset, q.Limit), nil
}

func (c *memCatalog) List(_ context.Context, k ext.Kind, offset, limit int) (*ext.Page, error) {
	if c.fail != nil {
		return nil, c.fail
	}
	return page(c.items[k], offset, limit), nil
}

func page(all []ext.Hit, offset, limit int) *ext.Page {
	if offset >= len(all) {
		return &ext.Page{}
	}
	end := min(offset+limit, len(all))
	return &ext.Page{Items: all[offset:end], More: end < len(all)}
}

var errSecret = errors.New("open /var/task/index/secret.zap: permission denied")

var _ ext.Selector = (*memCatalog)(nil)

// Select finds items by the member that names them: name, uri or
// uriTemplate.
func (c *memCatalog) Select(_ context.Context, k ext.Kind, name string) ([]ext.Hit, error) {
	if c.fail != nil {
		return nil, c.fail
	}
	var out []ext.Hit
	for _, h := range c.items[k] {
		var key struct{ Name, URI, URITemplate string }
		json.Unmarshal(h.Object, &key)
		if cmp.Or(key.URITemplate, key.URI, key.Name) == name {
			out = append(out, h)
		}
	}
	return out, nil
}
