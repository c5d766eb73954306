// Package requests keeps the requests people make for catalog items
// (catalog.MetaRequests): it drafts them with a language model for people
// to review, applies a reviewed file of requests to a catalog's server
// files, and reports what a catalog's requests cover.
//
// A requests file holds the requests of one server's items, as writers
// produce them and reviewers check them before they go into the catalog:
//
//	{"server": "mcp-slack", "items": [{"kind": "tool", "name": "slack_post_message", "requests": ["…", …]}, …]}
//
// Apply writes them into the server's file, each item's
// _meta["io.github.mcpsearch/requests"] replaced and nothing else of the
// file changed, once the file with them passes the catalog's own checks
// (catalog.CheckServerFile); it writes nothing when a request or an item
// is at fault, and names the file and the item.
//
// Draft writes such files: for each item selected (by default those
// without requests) it asks a Model — an OpenAI-compatible chat
// completions endpoint (OpenAI) or Amazon Bedrock's Converse API
// (Bedrock) — with the instruction and the item's message of prompt.tmpl:
// the item's name, title, description and parameters, and the siblings of
// its server most like it, which the requests must tell it apart from.
// The answer must be a JSON array of strings; each request is checked by
// the catalog's rule (catalog.CheckRequest) and repeats are dropped, each
// with a note; an item left with none fails. Calls are bounded (Calls: a
// timeout per try, the answer's size, retries after 429 and 5xx with a
// growing wait; a 401, 403 or 404 stops the drafting) and made a few at a
// time. Each server's draft file is
// checked as Apply would check it and written atomically; the items that
// failed are named in the error after the others are written, and a run
// after a partial one asks only for what is left. Drafting runs on an
// operator's machine, never in the Lambda function (infra/e2e's
// dependency rules). It has been tested only against scripted endpoints
// on 127.0.0.1: no model is reachable from the development machine.
//
// DraftCached is drafting as a build step (mcpsearch build and package):
// the drafts live in a directory beside the catalog (DraftsDir), one such
// file a server whose items carry a key (DraftKey: a hash of the item's
// content, the prompt and the model) and the model; the build gives the
// items with neither own nor library requests their fresh drafts
// (RequestsFromDraft), asks a model only for the items without one, and
// writes nothing when everything is fresh, so that the same inputs give
// the same files and the same bundle.
package requests

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/infra/crawl"
)

// File is the requests of one server's items.
type File struct {
	Server string `json:"server"`
	Items  []Item `json:"items"`
}

// Item is the requests of one item: its kind (tool, prompt, resource,
// resourceTemplate) and its upstream name (a resource's URI, a template's
// URI template).
type Item struct {
	Kind     string   `json:"kind"`
	Name     string   `json:"name"`
	Requests []string `json:"requests"`
	// Key and Model are set in the build's drafts (DraftCached): the
	// hash of what the model was told of the item (DraftKey) and the
	// model that drafted it ("openai:NAME", "bedrock:NAME"). Apply
	// ignores them.
	Key   string `json:"key,omitempty"`
	Model string `json:"model,omitempty"`
}

// lists maps a kind to the list of a server file that holds it, and to the
// member that names an item of it.
var lists = map[string]struct{ list, key string }{
	"tool": {"tools", "name"}, "prompt": {"prompts", "name"},
	"resource": {"resources", "uri"}, "resourceTemplate": {"resourceTemplates", "uriTemplate"},
}

// Read reads a requests file, refusing unknown members.
func Read(path string) (*File, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	var f File
	if err := dec.Decode(&f); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if f.Server == "" || filepath.Base(f.Server) != f.Server || f.Server[0] == '.' {
		return nil, fmt.Errorf("%s: field server: %q is no server name", path, f.Server)
	}
	return &f, nil
}

// Apply writes the requests of f (read from source) into its server's
// file in catalogDir and returns how many items it set.
func Apply(catalogDir string, f *File, source string) (int, error) {
	path, out, err := applied(catalogDir, f, source)
	if err != nil {
		return 0, err
	}
	return len(f.Items), crawl.ReplaceFile(catalogDir, path, out)
}

// applied returns the path of f's server file in catalogDir and what it
// holds with the requests of f, checked as the catalog checks it.
func applied(catalogDir string, f *File, source string) (path string, out []byte, err error) {
	path = filepath.Join(catalogDir, f.Server+".json")
	out, err = withRequests(path, f, source)
	return path, out, err
}

// withRequests returns what the server file at path holds with the
// requests of f (read from source), checked as the catalog checks it.
func withRequests(path string, f *File, source string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("%s: server %s: %w", source, f.Server, err)
	}
	file, err := decodeObject(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := setRequests(file, f, source, path); err != nil {
		return nil, err
	}
	out, err := encode(file, data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if err := catalog.CheckServerFile(path, out, nil); err != nil {
		return nil, fmt.Errorf("%s: with these requests: %w", source, err)
	}
	return out, nil
}

// setRequests sets the requests of each item of f in file, the server
// file at path.
func setRequests(file *object, f *File, source, path string) error {
	for i, it := range f.Items {
		where := fmt.Sprintf("%s: items[%d] (%s %q)", source, i, it.Kind, it.Name)
		l, ok := lists[it.Kind]
		if !ok {
			return fmt.Errorf("%s: kind: want tool, prompt, resource or resourceTemplate", where)
		}
		items, err := file.array(l.list)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		j, err := indexOf(items, l.key, it.Name)
		if err != nil {
			return fmt.Errorf("%s: %w", path, err)
		}
		if j < 0 {
			return fmt.Errorf("%s: no such item in %s", where, path)
		}
		requests, err := marshal(it.Requests)
		if err != nil {
			return err
		}
		if items[j], err = catalog.WithMetaKey(items[j], catalog.MetaRequests, requests); err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		if err := file.setArray(l.list, items); err != nil {
			return err
		}
	}
	return nil
}

// indexOf returns the index of the item of items whose member key is name,
// or -1.
func indexOf(items []json.RawMessage, key, name string) (int, error) {
	for j, raw := range items {
		it, err := decodeObject(raw)
		if err != nil {
			return 0, err
		}
		var got string
		if v := it.get(key); v != nil && json.Unmarshal(v, &got) == nil && got == name {
			return j, nil
		}
	}
	return -1, nil
}
