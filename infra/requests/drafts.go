package requests

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/infra/crawl"
)

// readDrafts reads the draft files of outDir that name a server of
// servers (outDir/SERVER.json); a server without one is absent.
func readDrafts(outDir string, servers []catalog.Server) (map[string]*File, error) {
	out := map[string]*File{}
	for _, s := range servers {
		path := draftPath(outDir, s.Name)
		f, err := Read(path)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("draft file %w", err)
		}
		if f.Server != s.Name {
			return nil, fmt.Errorf("draft file %s: field server: %q, want %q", path, f.Server, s.Name)
		}
		out[s.Name] = f
	}
	return out, nil
}

func draftPath(outDir, server string) string { return filepath.Join(outDir, server+".json") }

// find returns the index of the item of f of kind and name, or -1 (f may
// be nil).
func (f *File) find(kind, name string) int {
	if f == nil {
		return -1
	}
	for i, it := range f.Items {
		if it.Kind == kind && it.Name == name {
			return i
		}
	}
	return -1
}

// writeDrafts writes, for each server of jobs that got requests, its draft
// file: the items in catalog order, each with its new requests or, when
// not drafted now, those its previous file held. It returns the files
// written.
func writeDrafts(catalogDir, outDir string, drafts map[string]*File, jobs []job, results []result, notes io.Writer) ([]string, error) {
	drafted := map[*serverItems]map[int][]string{}
	var order []*serverItems
	for k, j := range jobs {
		if results[k].err != nil {
			continue
		}
		if drafted[j.srv] == nil {
			drafted[j.srv] = map[int][]string{}
			order = append(order, j.srv)
		}
		drafted[j.srv][j.i] = results[k].requests
	}
	if len(order) > 0 {
		if err := os.MkdirAll(outDir, 0o755); err != nil {
			return nil, err
		}
	}
	var written []string
	for _, srv := range order {
		path := draftPath(outDir, srv.server.Name)
		f := merge(srv, drafted[srv], drafts[srv.server.Name], notes)
		if err := writeDraft(catalogDir, outDir, path, f); err != nil {
			return written, err
		}
		written = append(written, path)
	}
	return written, nil
}

// merge returns the draft file of srv: the items of now (by index) and
// those of before that were not drafted now, in catalog order. An item of
// before that the catalog no longer has is dropped, with a note.
func merge(srv *serverItems, now map[int][]string, before *File, notes io.Writer) *File {
	f := &File{Server: srv.server.Name, Items: []Item{}}
	kept := map[int]bool{}
	for i, it := range srv.items {
		kind := string(it.Kind)
		requests, ok := now[i]
		if j := before.find(kind, it.UpstreamName); j >= 0 {
			kept[j] = true
			if !ok {
				requests, ok = before.Items[j].Requests, true
			}
		}
		if ok {
			f.Items = append(f.Items, Item{Kind: kind, Name: it.UpstreamName, Requests: requests})
		}
	}
	if before != nil {
		for j, it := range before.Items {
			if !kept[j] {
				fmt.Fprintf(notes, "%s: %s %q dropped from the draft: no such item in the catalog\n", srv.server.Name, it.Kind, it.Name)
			}
		}
	}
	return f
}

// writeDraft writes f to path once Apply would take it.
func writeDraft(catalogDir, outDir, path string, f *File) error {
	if _, _, err := applied(catalogDir, f, path); err != nil {
		return fmt.Errorf("the draft would not apply: %w", err)
	}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // requests as people write them: & < >
	enc.SetIndent("", "  ")
	if err := enc.Encode(f); err != nil {
		return err
	}
	return crawl.ReplaceFile(outDir, path, b.Bytes())
}
