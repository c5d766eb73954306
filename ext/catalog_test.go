package ext

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
)

// memCatalog is an in-memory Catalog for tests: it scores an item by the
// number of query words in its object text.
type memCatalog struct {
	version string
	items   map[Kind][]Hit
	fail    error // returned by every call when set
	// before, when set, runs at the start of every Search: tests make a
	// search slow, blocked or panicking with it.
	before func(ctx context.Context)
}

var _ Catalog = (*memCatalog)(nil)

func newMemCatalog(version string, tools int) *memCatalog {
	c := &memCatalog{version: version, items: map[Kind][]Hit{}}
	for i := range tools {
		c.add(KindTool, "srv", fmt.Sprintf(`{"name":"srv__tool_%03d","description":"tool number %d %s","inputSchema":{"type":"object"}}`, i, i, words[i%len(words)]))
	}
	c.add(KindPrompt, "srv", `{"name":"srv__summarize","description":"summarize a document"}`)
	c.add(KindResource, "srv", `{"uri":"file:///readme.md","name":"readme","description":"the project readme"}`)
	c.add(KindResourceTemplate, "srv", `{"uriTemplate":"file:///{path}","name":"files","description":"any project file"}`)
	return c
}

var words = []string{"screenshot", "merge", "deploy", "query", "email"}

func (c *memCatalog) add(k Kind, server, obj string) {
	c.items[k] = append(c.items[k], Hit{Object: json.RawMessage(obj), Server: server})
}

func (c *memCatalog) Version() string { return c.version }

func (c *memCatalog) Search(ctx context.Context, q Query) (*Page, error) {
	if c.before != nil {
		c.before(ctx)
	}
	if c.fail != nil {
		return nil, c.fail
	}
	if _, bad := q.Filter.Annotations["bad"]; bad {
		return nil, fmt.Errorf("%w: filter.annotations.bad is not supported", ErrInvalidParams)
	}
	var hits []Hit
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
	slices.SortStableFunc(hits, func(a, b Hit) int { return int(b.Score - a.Score) })
	return page(hits, q.Offset, q.Limit), nil
}

func (c *memCatalog) List(_ context.Context, k Kind, offset, limit int) (*Page, error) {
	if c.fail != nil {
		return nil, c.fail
	}
	return page(c.items[k], offset, limit), nil
}

func page(all []Hit, offset, limit int) *Page {
	if offset >= len(all) {
		return &Page{}
	}
	end := min(offset+limit, len(all))
	return &Page{Items: all[offset:end], More: end < len(all)}
}

var errSecret = errors.New("open /var/task/index/secret.zap: permission denied")
