package searchclient

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"slices"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpsearch/mcpsearch/ext"
)

// searchLocal is the fallback: it lists every item of kind k, ranks them
// with Rank, applies the filter and yields the ranking limit items a page.
func (c *Client) searchLocal(ctx context.Context, k ext.Kind, query string, limit int, f *ext.Filter, yield func(*Page, error) bool) {
	objects, err := c.listAll(ctx, k)
	if err != nil {
		yield(nil, fmt.Errorf("searchclient: %s: listing %s for the local ranking: %w", c.name, k.ResultKey(), err))
		return
	}
	ranked := c.filter(c.rank(query, objects), k, f)
	for start := 0; ; start += limit {
		end := min(start+limit, len(ranked))
		if !yield(&Page{Items: ranked[start:end], Fallback: true}, nil) || end == len(ranked) {
			return
		}
	}
}

// rank ranks objects with Rank; each item's server is the one its _meta
// names (mcpsearch's lists name each item's catalog server there), else
// the client's name.
func (c *Client) rank(query string, objects []json.RawMessage) []Item {
	ranked := Rank(query, objects)
	for i, it := range ranked {
		ranked[i].Server = c.name
		if listed, err := c.item(it.Object); err == nil {
			ranked[i].Server = listed.Server
		}
	}
	return ranked
}

// listAll walks every page of the list method of kind k.
func (c *Client) listAll(ctx context.Context, k ext.Kind) ([]json.RawMessage, error) {
	switch k {
	case ext.KindTool:
		return collect(c.mc.IterTools(ctx, mcp.ListToolsRequest{}))
	case ext.KindPrompt:
		return collect(c.mc.IterPrompts(ctx, mcp.ListPromptsRequest{}))
	case ext.KindResource:
		return collect(c.mc.IterResources(ctx, mcp.ListResourcesRequest{}))
	default:
		return collect(c.mc.IterResourceTemplates(ctx, mcp.ListResourceTemplatesRequest{}))
	}
}

func collect[T any](seq iter.Seq2[T, error]) ([]json.RawMessage, error) {
	var out []json.RawMessage
	for v, err := range seq {
		if err != nil {
			return nil, err
		}
		raw, err := json.Marshal(v)
		if err != nil {
			return nil, err
		}
		out = append(out, raw)
	}
	return out, nil
}

// filter applies f locally: Servers against each item's server (the
// client's name unless the item's _meta names another), and Annotations
// to tools, the standard hints taking their MCP defaults.
func (c *Client) filter(items []Item, k ext.Kind, f *ext.Filter) []Item {
	if f == nil {
		return items
	}
	if len(f.Servers) > 0 {
		items = slices.DeleteFunc(items, func(it Item) bool { return !slices.Contains(f.Servers, it.Server) })
	}
	if len(f.Annotations) == 0 || k != ext.KindTool {
		return items
	}
	return slices.DeleteFunc(items, func(it Item) bool { return !annotationsMatch(it.Object, f.Annotations) })
}

var annotationDefaults = map[string]any{"readOnlyHint": false, "destructiveHint": true, "idempotentHint": false, "openWorldHint": true}

func annotationsMatch(obj json.RawMessage, want map[string]any) bool {
	var tool struct {
		Annotations map[string]any `json:"annotations"`
	}
	json.Unmarshal(obj, &tool)
	for key, w := range want {
		got, ok := tool.Annotations[key]
		if !ok {
			got = annotationDefaults[key]
		}
		if got != w {
			return false
		}
	}
	return true
}
