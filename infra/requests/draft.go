package requests

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"strings"
	"sync"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// DraftOptions say which items Draft drafts and how. A nil *DraftOptions
// means the defaults.
type DraftOptions struct {
	// Servers are the servers whose items are drafted; none: every server.
	Servers []string
	// Items are the items drafted, by canonical or upstream name, whether
	// or not they carry requests; none: every item of Servers that carries
	// none and is not in its draft file yet.
	Items []string
	// All drafts the items of Servers that carry requests, or are drafted
	// already, too.
	All bool
	// Limit is the most items drafted; zero: every item selected.
	Limit int
	// Count is how many requests the model is asked for an item. If zero,
	// DefaultCount.
	Count int
	// Concurrency is how many items are asked at once. If zero,
	// DefaultConcurrency.
	Concurrency int
	// Notes gets a line for each item drafted and each request dropped.
	// If nil, they are discarded.
	Notes io.Writer
}

// Defaults of DraftOptions.
const (
	DefaultCount       = 8
	DefaultConcurrency = 4
)

// minRequests is the fewest requests the writers' guide asks of an item;
// an item drafted with fewer is noted.
const minRequests = 6

func (o *DraftOptions) orDefaults() DraftOptions {
	var d DraftOptions
	if o != nil {
		d = *o
	}
	if d.Count <= 0 {
		d.Count = DefaultCount
	}
	if d.Concurrency <= 0 {
		d.Concurrency = DefaultConcurrency
	}
	if d.Notes == nil {
		d.Notes = io.Discard
	}
	d.Notes = &lockedWriter{w: d.Notes}
	return d
}

// Drafted is what Draft did: the items drafted and the files written.
type Drafted struct {
	Items int
	Files []string
}

// job is one item to draft: item i of a server.
type job struct {
	srv *serverItems
	i   int
}

func (j job) item() catalog.Item { return j.srv.items[j.i] }

// result is what the model gave for a job, or why not; notAsked: the
// drafting stopped before the job was asked.
type result struct {
	requests []string
	err      error
	notAsked bool
}

// Draft asks model for the requests of the items of the catalog in
// catalogDir that opts selects, and writes them into outDir, one requests
// file per server (outDir/SERVER.json, what Apply reads), for people to
// review before they apply it. The items a server's file held already and
// that were not drafted again are kept. Each file is checked as Apply
// would check it and written whole or not at all. An item the model
// fails does not stop the others (but a 401, 403 or 404, the endpoint's
// refusal of every item, does): Draft writes what was drafted and then
// returns an error naming the items that failed (the first 20), the model
// and why.
func Draft(ctx context.Context, catalogDir, outDir string, model Model, opts *DraftOptions) (*Drafted, error) {
	o := opts.orDefaults()
	if sameDir(catalogDir, outDir) {
		return nil, fmt.Errorf("the drafts' directory %s is the catalog's: drafts go elsewhere, to be reviewed before they are applied", outDir)
	}
	cat, err := catalog.LoadDir(catalogDir, nil)
	if err != nil {
		return nil, err
	}
	drafts, err := readDrafts(outDir, cat.Servers)
	if err != nil {
		return nil, err
	}
	jobs, err := selectJobs(cat, drafts, &o)
	if err != nil {
		return nil, err
	}
	results := draftAll(ctx, model, jobs, &o)
	done := &Drafted{}
	for _, r := range results {
		if r.err == nil {
			done.Items++
		}
	}
	done.Files, err = writeDrafts(catalogDir, outDir, drafts, jobs, results, o.Notes)
	if err != nil {
		return done, err
	}
	return done, failures(results)
}

// maxFailuresListed bounds the items an error names one by one.
const maxFailuresListed = 20

// failures is the error that names the items of results that failed, and
// says how many were not asked and why; nil when every item was drafted.
func failures(results []result) error {
	var failed []string
	notAsked, why := 0, ""
	for _, r := range results {
		switch {
		case r.notAsked:
			notAsked, why = notAsked+1, r.err.Error()
		case r.err != nil:
			failed = append(failed, r.err.Error())
		}
	}
	if len(failed)+notAsked == 0 {
		return nil
	}
	lines := failed[:min(len(failed), maxFailuresListed)]
	if more := len(failed) - len(lines); more > 0 {
		lines = append(lines, fmt.Sprintf("… and %d more", more))
	}
	if notAsked > 0 {
		lines = append(lines, fmt.Sprintf("%d items not asked: %s", notAsked, why))
	}
	return fmt.Errorf("%d of %d items not drafted (those drafted are written; run again to draft the others):\n  %s",
		len(failed)+notAsked, len(results), strings.Join(lines, "\n  "))
}

// selectJobs returns the items of cat that o selects, in catalog order.
func selectJobs(cat *catalog.Catalog, drafts map[string]*File, o *DraftOptions) ([]job, error) {
	servers, err := pick(cat.Servers, o.Servers)
	if err != nil {
		return nil, err
	}
	named, err := namedItems(cat, servers, o.Items)
	if err != nil {
		return nil, err
	}
	var jobs []job
	for _, s := range servers {
		srv := newServerItems(s, serverItemsOf(cat, s.Name))
		for i, it := range srv.items {
			if wanted(it, drafts[s.Name], named, o) {
				jobs = append(jobs, job{srv, i})
			}
		}
	}
	if o.Limit > 0 && len(jobs) > o.Limit {
		jobs = jobs[:o.Limit]
	}
	return jobs, nil
}

// wanted says whether o selects it, whose server's draft file is draft.
func wanted(it catalog.Item, draft *File, named map[string]bool, o *DraftOptions) bool {
	switch {
	case len(o.Items) > 0:
		return named[it.Name]
	case o.All:
		return true
	}
	return len(it.Requests) == 0 && draft.find(string(it.Kind), it.UpstreamName) < 0
}

// pick returns the servers named (all of them when none is), refusing a
// name the catalog lacks.
func pick(all []catalog.Server, names []string) ([]catalog.Server, error) {
	if len(names) == 0 {
		return all, nil
	}
	var out []catalog.Server
	for _, name := range names {
		i := slices.IndexFunc(all, func(s catalog.Server) bool { return s.Name == name })
		if i < 0 {
			return nil, fmt.Errorf("server %q: no such server in the catalog", name)
		}
		out = append(out, all[i])
	}
	return out, nil
}

// namedItems returns the canonical names of the items of servers that
// names name (canonically or by upstream name), refusing a name that
// names none.
func namedItems(cat *catalog.Catalog, servers []catalog.Server, names []string) (map[string]bool, error) {
	out := map[string]bool{}
	for _, name := range names {
		found := false
		for _, it := range cat.Items {
			if (it.Name == name || it.UpstreamName == name) && slices.ContainsFunc(servers, func(s catalog.Server) bool { return s.Name == it.Server }) {
				out[it.Name], found = true, true
			}
		}
		if !found {
			return nil, fmt.Errorf("item %q: no such item in the servers drafted", name)
		}
	}
	return out, nil
}

func serverItemsOf(cat *catalog.Catalog, server string) []catalog.Item {
	var out []catalog.Item
	for _, it := range cat.Items {
		if it.Server == server {
			out = append(out, it)
		}
	}
	return out
}

// draftAll drafts jobs, o.Concurrency at a time; results[k] is jobs[k]'s.
// A refusal that no other item would escape (a wrong key, model or
// endpoint) stops the asking: the items left are not asked.
func draftAll(ctx context.Context, model Model, jobs []job, o *DraftOptions) []result {
	ctx, stop := context.WithCancelCause(ctx)
	defer stop(nil)
	results := make([]result, len(jobs))
	next := make(chan int)
	var wg sync.WaitGroup
	system := systemPrompt()
	for range min(o.Concurrency, len(jobs)) {
		wg.Go(func() {
			for k := range next {
				results[k] = draftOne(ctx, model, system, jobs[k], o)
				if err := results[k].err; endpointRefused(err) {
					stop(fmt.Errorf("%s stopped the drafting: %w", model, errors.Unwrap(err)))
				}
			}
		})
	}
	for k := range jobs {
		next <- k
	}
	close(next)
	wg.Wait()
	return results
}

// endpointRefused says whether err is a refusal of the endpoint itself
// (401, 403, 404), not of one item.
func endpointRefused(err error) bool {
	var s *StatusError
	return errors.As(err, &s) && (s.Status == http.StatusUnauthorized || s.Status == http.StatusForbidden || s.Status == http.StatusNotFound)
}

// draftOne asks model for the requests of one item and keeps the valid
// ones; its error names the item and the model.
func draftOne(ctx context.Context, model Model, system string, j job, o *DraftOptions) result {
	name := j.item().Name
	if ctx.Err() != nil {
		return result{err: context.Cause(ctx), notAsked: true}
	}
	user, err := j.srv.prompt(j.i, o.Count)
	if err != nil {
		return result{err: fmt.Errorf("%s: writing the prompt: %w", name, err)}
	}
	answer, err := model.Complete(ctx, system, user)
	if err != nil && ctx.Err() != nil && !endpointRefused(err) {
		return result{err: context.Cause(ctx), notAsked: true} // cut short
	}
	if err != nil {
		return result{err: fmt.Errorf("%s: %s: %w", name, model, err)}
	}
	drafted, err := parseAnswer(answer)
	if err != nil {
		return result{err: fmt.Errorf("%s: %s: %w", name, model, err)}
	}
	kept, notes := keepValid(drafted)
	for _, n := range notes {
		fmt.Fprintf(o.Notes, "%s: %s\n", name, n)
	}
	if len(kept) == 0 {
		return result{err: fmt.Errorf("%s: %s: none of the model's %d requests is valid", name, model, len(drafted))}
	}
	fewer := ""
	if len(kept) < minRequests {
		fewer = fmt.Sprintf(" (fewer than the %d the writers' guide asks)", minRequests)
	}
	fmt.Fprintf(o.Notes, "%s: %d requests%s\n", name, len(kept), fewer)
	return result{requests: kept}
}

// lockedWriter lets workers write their notes a line at a time.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// sameDir says whether a and b name the same directory.
func sameDir(a, b string) bool {
	sa, errA := os.Stat(a)
	sb, errB := os.Stat(b)
	return errA == nil && errB == nil && os.SameFile(sa, sb)
}
