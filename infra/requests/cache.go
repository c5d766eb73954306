package requests

import (
	"cmp"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"hash"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// RequestsFromDraft is catalog.Item.RequestsFrom for requests a model
// drafted at build (DraftCached), which nobody has reviewed yet.
const RequestsFromDraft = "draft"

// DraftsDir is where a build keeps its drafts when the operator names no
// other directory: CATALOG/drafts, beside the catalog's server files
// (catalog.LoadDir reads only the *.json files of the catalog itself).
func DraftsDir(catalogDir string) string { return filepath.Join(catalogDir, "drafts") }

// Drafter is a model that drafts at build, and its ID in the drafts'
// keys: "openai:NAME" or "bedrock:NAME", never an endpoint or a secret,
// so that the same model behind another address keeps its drafts.
type Drafter struct {
	Model Model
	ID    string
}

// CacheOptions configure DraftCached. A nil *CacheOptions means no model
// and the defaults.
type CacheOptions struct {
	// Drafter drafts the items that lack requests and a fresh draft. If
	// nil, nothing is drafted: the fresh drafts there are are applied.
	Drafter *Drafter
	// Concurrency is how many items are asked at once. If zero,
	// DefaultConcurrency.
	Concurrency int
	// Notes gets a line for each item drafted and each request dropped.
	// If nil, they are discarded.
	Notes io.Writer
}

// Cached is what DraftCached did.
type Cached struct {
	Dir string // the drafts' directory
	// Applied counts the items given drafted requests; Drafted those of
	// them the model drafted now. ByServer is Applied server by server.
	Applied, Drafted int
	ByServer         map[string]int
	// Missing counts the items left without requests (none of their own,
	// none of the library's, no fresh draft); Stale those of them whose
	// build draft (one with a key) was written for other content, or with
	// another prompt.
	Missing, Stale int
	// Files are the draft files written, in catalog order.
	Files []string
}

// DraftCached gives each item of cat (loaded from catalogDir, the
// library attached) that has no requests the requests of its fresh draft
// in dir, marked RequestsFromDraft: one whose key is DraftKey of the item
// as it is now. With opts.Drafter it first drafts, a few at a time, the
// items without one, and rewrites the draft file of each server it
// drafted for: that server's items without requests, sorted by kind and
// name, each with its key and model. A build whose drafts are all fresh
// asks nothing and writes nothing, so two builds of the same inputs give
// the same files and the same catalog. Without a Drafter a stale draft
// (its item changed since) is not applied, and counted. When an item
// fails, the files of what was drafted are written whole (a run after
// asks only for what is left) and the error names the items and the
// model; when the endpoint refuses (401, 403, 404) or cannot be reached,
// nothing is drafted and no file is written.
func DraftCached(ctx context.Context, cat *catalog.Catalog, catalogDir, dir string, opts *CacheOptions) (*Cached, error) {
	var o CacheOptions
	if opts != nil {
		o = *opts
	}
	drafts, err := readDrafts(dir, cat.Servers)
	if err != nil {
		return nil, err
	}
	c := &Cached{Dir: dir, ByServer: map[string]int{}}
	jobs, at, fresh := c.sort(cat, drafts, o.Drafter)
	if len(jobs) > 0 {
		do := (&DraftOptions{Concurrency: o.Concurrency, Notes: o.Notes}).orDefaults()
		results := draftAll(ctx, o.Drafter.Model, jobs, &do)
		c.drafted(jobs, at, results, o.Drafter.ID, fresh)
		if c.Files, err = writeCached(catalogDir, dir, cat, jobs, results, fresh); err != nil {
			return nil, err
		}
		if err := failures(results); err != nil {
			return c, err
		}
	}
	c.apply(cat, fresh)
	return c, nil
}

// draftsOf keeps, by catalog item index, the fresh draft of each item.
type draftsOf map[int]Item

// sort returns the items of cat without requests that drafter must draft
// (none without one), with the index of each in cat.Items, and the fresh
// drafts of the others; it counts the items left missing.
func (c *Cached) sort(cat *catalog.Catalog, drafts map[string]*File, drafter *Drafter) (jobs []job, at []int, fresh draftsOf) {
	fresh = draftsOf{}
	for _, s := range cat.Servers {
		idx := indexesOf(cat, s.Name)
		srv := newServerItems(s, serverItemsOf(cat, s.Name))
		for i, it := range srv.items {
			if len(it.Requests) > 0 {
				continue
			}
			d, found := draftOf(drafts[s.Name], &it)
			model := d.Model
			if drafter != nil {
				model = drafter.ID
			}
			switch {
			case found && d.Key == DraftKey(&it, model):
				fresh[idx[i]] = d
			case drafter != nil:
				jobs, at = append(jobs, job{srv, i}), append(at, idx[i])
			default:
				c.Missing++
				if found && d.Key != "" {
					c.Stale++
				}
			}
		}
	}
	return jobs, at, fresh
}

// draftOf is the draft of it in f (which may be nil), if there is one.
func draftOf(f *File, it *catalog.Item) (Item, bool) {
	if i := f.find(string(it.Kind), it.UpstreamName); i >= 0 {
		return f.Items[i], true
	}
	return Item{}, false
}

// indexesOf are the indexes in cat.Items of the items of server, in the
// order serverItemsOf returns them.
func indexesOf(cat *catalog.Catalog, server string) []int {
	var out []int
	for i := range cat.Items {
		if cat.Items[i].Server == server {
			out = append(out, i)
		}
	}
	return out
}

// drafted adds to fresh the drafts of the jobs the model answered (job k
// is item at[k] of the catalog), keyed for drafter, and counts the others
// missing.
func (c *Cached) drafted(jobs []job, at []int, results []result, drafter string, fresh draftsOf) {
	for k, j := range jobs {
		if results[k].err != nil {
			c.Missing++
			continue
		}
		it := j.item()
		fresh[at[k]] = Item{Kind: string(it.Kind), Name: it.UpstreamName, Requests: results[k].requests,
			Key: DraftKey(&it, drafter), Model: drafter}
		c.Drafted++
	}
}

// apply gives the items of fresh their drafted requests.
func (c *Cached) apply(cat *catalog.Catalog, fresh draftsOf) {
	for i, d := range fresh {
		it := &cat.Items[i]
		it.Requests, it.RequestsFrom = d.Requests, RequestsFromDraft
		c.Applied++
		c.ByServer[it.Server]++
	}
}

// writeCached writes the draft file of each server of jobs the model
// answered for: the fresh drafts of its items, sorted by kind and name.
func writeCached(catalogDir, dir string, cat *catalog.Catalog, jobs []job, results []result, fresh draftsOf) ([]string, error) {
	var servers []string
	for k, j := range jobs {
		if name := j.srv.server.Name; results[k].err == nil && !slices.Contains(servers, name) {
			servers = append(servers, name)
		}
	}
	if len(servers) == 0 {
		return nil, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("the drafts' directory: %w", err)
	}
	var written []string
	for _, name := range servers {
		f := &File{Server: name, Items: []Item{}}
		for i, d := range fresh {
			if cat.Items[i].Server == name {
				f.Items = append(f.Items, d)
			}
		}
		slices.SortFunc(f.Items, func(a, b Item) int { return cmp.Or(cmp.Compare(a.Kind, b.Kind), cmp.Compare(a.Name, b.Name)) })
		path := draftPath(dir, name)
		if err := writeDraft(catalogDir, dir, path, f); err != nil {
			return written, err
		}
		written = append(written, path)
	}
	return written, nil
}

// promptID identifies the prompt (prompt.tmpl) in the drafts' keys: a
// new prompt drafts every item again.
var promptID = func() string {
	sum := sha256.Sum256([]byte(promptText))
	return hex.EncodeToString(sum[:8])
}()

// DraftKey is the key of a draft of it by the model drafter (a Drafter's
// ID): a hash of what the prompt tells of the item itself — its kind,
// name, label, title, description and parameters (the schema's names and
// descriptions) —, of the prompt and of the model. Its siblings, which
// the prompt names too, are not in it: a new tool beside an item does not
// draft the item again.
func DraftKey(it *catalog.Item, drafter string) string {
	h := sha256.New()
	field(h, "mcpsearch draft 1", drafter, promptID, fmt.Sprint(DefaultCount), string(it.Kind), it.UpstreamName, it.Label, it.Title, it.Description)
	for _, p := range it.Params {
		field(h, p.Name, p.Description)
	}
	return hex.EncodeToString(h.Sum(nil)[:16])
}

// field writes each of values to h, its length first, so that no two
// lists of values write the same bytes.
func field(h hash.Hash, values ...string) {
	for _, v := range values {
		fmt.Fprintf(h, "%d:%s", len(v), v)
	}
}
