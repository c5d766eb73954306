package crawl

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// What the project's keys (catalog.MetaPrefix, io.github.mcpsearch/…)
// hold comes from the operator's files, never from an upstream's answer:
// an item's visibility and requests (catalog.MetaVisibility,
// catalog.MetaRequests) from the servers file and the requests carried
// from the previous catalog file (requests.go), and the others are the
// server's to add to its own answers. A crawl therefore strips every such
// key, however it is escaped, from the _meta of each item an upstream lists
// (tools, prompts, resources, templates) and from the capabilities it
// announces, and names what held them (Result.Stripped).

// stripItems removes the project's keys from the _meta of each item of
// the list named list, in place, and names the items that held some.
func stripItems(list string, items []json.RawMessage) ([]string, error) {
	var names []string
	for i, raw := range items {
		out, removed, err := catalog.WithoutProjectKeys(raw)
		if err != nil {
			return nil, fmt.Errorf("%s[%d]: reading its _meta: %w", list, i, err)
		}
		if len(removed) == 0 {
			continue
		}
		items[i] = out
		key, _ := keyOf(list, out)
		names = append(names, fmt.Sprintf("%s %q (%s)", list, key.name, strings.Join(removed, ", ")))
	}
	return names, nil
}

// stripCapabilities removes the project's keys from the extensions and
// experimental capabilities an upstream announced (which would claim the
// search extension for it), and names them.
func stripCapabilities(caps *mcp.ServerCapabilities) []string {
	var names []string
	for _, m := range []struct {
		field string
		keys  map[string]any
	}{{"extensions", caps.Extensions}, {"experimental", caps.Experimental}} {
		var found []string
		for k := range m.keys {
			if strings.HasPrefix(k, catalog.MetaPrefix) {
				found = append(found, k)
			}
		}
		slices.Sort(found)
		for _, k := range found {
			delete(m.keys, k)
			names = append(names, fmt.Sprintf("capabilities.%s %q", m.field, k))
		}
	}
	return names
}
