package crawl

import (
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"sort"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// Requests written for a server's items (_meta[catalog.MetaRequests]) are
// the project's own work, not the upstream's: a crawl keeps those of every
// item whose name and description are as they were, and drops the others,
// naming them (Result.RequestsDropped), since requests written for what an
// item did may not fit what it does now.

// itemKey names an item within its server file: its list and its name, or
// the URI of a resource or template.
type itemKey struct{ list, name string }

// previousItem is what the previous file said of an item.
type previousItem struct {
	description string
	requests    json.RawMessage
}

// carryRequests copies into f the requests of the items of the previous
// file at path whose name and description are unchanged. It returns how
// many items kept theirs and the names of those whose requests it dropped.
// A previous file that cannot be read is an error: the crawl would lose
// its requests.
func carryRequests(path string, f *catalogFile) (kept int, dropped []string, err error) {
	previous, err := previousRequests(path)
	if err != nil || len(previous) == 0 {
		return 0, nil, err
	}
	for _, l := range f.lists() {
		for i, raw := range *l.items {
			key, desc := keyOf(l.name, raw)
			p, ok := previous[key]
			if !ok || p.description != desc {
				continue
			}
			if (*l.items)[i], err = catalog.WithMetaKey(raw, catalog.MetaRequests, p.requests); err != nil {
				return 0, nil, fmt.Errorf("%s %q: %w", l.name, key.name, err)
			}
			delete(previous, key)
			kept++
		}
	}
	for key := range previous {
		dropped = append(dropped, key.name)
	}
	sort.Strings(dropped)
	return kept, dropped, nil
}

// previousRequests reads the items with requests of the file at path
// (none when there is no file).
func previousRequests(path string) (map[itemKey]previousItem, error) {
	data, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("reading the requests of the previous file: %w", err)
	}
	var old catalogFile
	if err := json.Unmarshal(data, &old); err != nil {
		return nil, fmt.Errorf("reading the requests of the previous file %s: %w", path, err)
	}
	out := map[itemKey]previousItem{}
	for _, l := range old.lists() {
		for _, raw := range *l.items {
			var probe struct {
				Meta map[string]json.RawMessage `json:"_meta"`
			}
			if json.Unmarshal(raw, &probe) != nil || probe.Meta[catalog.MetaRequests] == nil {
				continue
			}
			key, desc := keyOf(l.name, raw)
			out[key] = previousItem{description: desc, requests: probe.Meta[catalog.MetaRequests]}
		}
	}
	return out, nil
}

// keyOf returns the key and the description of an item of the list name.
func keyOf(list string, raw json.RawMessage) (itemKey, string) {
	var it struct {
		Name, URI, URITemplate, Description string
	}
	json.Unmarshal(raw, &it) // an item the upstream listed: a JSON object
	name := it.Name
	switch list {
	case "resources":
		name = it.URI
	case "resourceTemplates":
		name = it.URITemplate
	}
	return itemKey{list, name}, it.Description
}

// lists are the item lists of f, by their names in the file.
func (f *catalogFile) lists() []struct {
	name  string
	items *[]json.RawMessage
} {
	return []struct {
		name  string
		items *[]json.RawMessage
	}{{"tools", &f.Tools}, {"prompts", &f.Prompts}, {"resources", &f.Resources}, {"resourceTemplates", &f.ResourceTemplates}}
}
