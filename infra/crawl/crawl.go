// Package crawl lists the tools, prompts, resources and resource templates
// of live MCP servers and writes one catalog file per server, in the format
// catalog.LoadDir reads (index/README.md, "Catalogs and bundles").
//
// A servers file (YAML or JSON, see LoadServers) names the upstreams. Run
// connects to each with mcp-go's client — Streamable HTTP or a stdio
// subprocess — at most Options.Concurrency at a time, each within
// Options.Timeout; follows every cursor of every list the server's
// capabilities declare; and writes <out>/<name>.json atomically (a temporary
// file in the same directory, then a rename). The objects are the upstream's
// raw JSON, untouched but for the project's own _meta keys, which only the
// operator's files set and a crawl strips (strip.go). ${VAR} references in the servers file are resolved
// only to connect: the catalog keeps them as written, so secrets never reach
// it.
//
// A server that fails — unreachable, hanging past the timeout, dying
// mid-list, an unset variable, an answer the build would refuse (the
// checks and limits of catalog.LoadDir, run on each file before it is
// written) — gets a failed Result, and its previous catalog file, if any,
// is left as it was; the others are written anyway.
package crawl

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// Defaults of Options.
const (
	DefaultConcurrency      = 8
	DefaultTimeout          = 30 * time.Second
	DefaultMaxResourceBytes = 64 << 10
)

// Options configure Run. A nil *Options means the defaults.
type Options struct {
	// Concurrency is how many servers are crawled at once. If zero,
	// DefaultConcurrency.
	Concurrency int
	// Timeout bounds the whole crawl of one server, from start to the last
	// page. If zero, DefaultTimeout.
	Timeout time.Duration
	// ReadResources reads every listed resource (resources/read) and keeps
	// its text in the catalog's resourceContents. Binary contents are left
	// out.
	ReadResources bool
	// MaxResourceBytes cuts each resource text to this many bytes (at a
	// character boundary; Result.Truncated counts them), at most
	// catalog.MaxContentBytes. If zero, DefaultMaxResourceBytes.
	MaxResourceBytes int
	// Lookup resolves ${VAR} references. If nil, os.LookupEnv.
	Lookup func(string) (string, bool)
	// Progress hears of each server as it starts and ends. If nil, nothing.
	Progress Progress
}

func (o *Options) withDefaults() Options {
	var out Options
	if o != nil {
		out = *o
	}
	if out.Concurrency <= 0 {
		out.Concurrency = DefaultConcurrency
	}
	if out.Timeout <= 0 {
		out.Timeout = DefaultTimeout
	}
	if out.MaxResourceBytes <= 0 {
		out.MaxResourceBytes = DefaultMaxResourceBytes
	}
	return out
}

// Progress reports a crawl as it goes. Calls may come from several
// goroutines at once.
type Progress interface {
	Start(total int)
	Done(r Result)
}

// Result is the outcome of one server's crawl.
type Result struct {
	Server                                 string
	Tools, Prompts, Resources, Templates   int
	Contents, Truncated, Binary, ReadFails int // with ReadResources
	Elapsed                                time.Duration
	File                                   string // written catalog file; empty on failure
	// RequestsKept counts the items whose written requests the new file
	// keeps; RequestsDropped names those whose requests it dropped, the
	// item changed (its description) or gone (requests.go).
	RequestsKept    int
	RequestsDropped []string
	// Stripped names what the upstream answered with keys of the project
	// (io.github.mcpsearch/…), which only the operator's files set: the
	// items whose _meta held them, and the capabilities that named them.
	// The file is written without them (strip.go).
	Stripped []string
	Err      error
}

// Run crawls every server of cfg into outDir, which is created if needed.
// It returns one Result per server, in cfg's order, and an error naming
// every failed server (nil if all succeeded).
func Run(ctx context.Context, cfg *Config, outDir string, opts *Options) ([]Result, error) {
	o := opts.withDefaults()
	if o.MaxResourceBytes > catalog.MaxContentBytes {
		return nil, fmt.Errorf("resource texts cut at %d bytes: the index takes at most %d", o.MaxResourceBytes, catalog.MaxContentBytes)
	}
	if err := os.MkdirAll(outDir, 0o755); err != nil {
		return nil, fmt.Errorf("creating %s: %w", outDir, err)
	}
	if o.Progress != nil {
		o.Progress.Start(len(cfg.Servers))
	}
	results := make([]Result, len(cfg.Servers))
	sem := make(chan struct{}, o.Concurrency)
	var wg sync.WaitGroup
	for i := range cfg.Servers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			sem <- struct{}{}
			defer func() { <-sem }()
			results[i] = crawlOne(ctx, &cfg.Servers[i], outDir, &o)
			if o.Progress != nil {
				o.Progress.Done(results[i])
			}
		}()
	}
	wg.Wait()
	return results, failures(results)
}

// failures names each failed server with its error.
func failures(results []Result) error {
	var errs []error
	var names []string
	for _, r := range results {
		if r.Err != nil {
			names = append(names, r.Server)
			errs = append(errs, fmt.Errorf("%s: %w", r.Server, r.Err))
		}
	}
	if len(errs) == 0 {
		return nil
	}
	return fmt.Errorf("%d of %d servers failed (%s):\n%w", len(errs), len(results), strings.Join(names, ", "), errors.Join(errs...))
}

// crawlOne crawls one server within the timeout and writes its file.
func crawlOne(ctx context.Context, s *ServerConfig, outDir string, o *Options) Result {
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, o.Timeout)
	defer cancel()
	r := Result{Server: s.Name}
	f, err := fetch(ctx, s, o, &r)
	if err == nil {
		r.RequestsKept, r.RequestsDropped, err = carryRequests(filepath.Join(outDir, f.Server+".json"), f)
	}
	if err == nil {
		r.File, err = writeCatalog(outDir, f)
	}
	if err != nil && ctx.Err() == context.DeadlineExceeded {
		err = fmt.Errorf("no complete answer within %s: %w", o.Timeout, err)
	}
	r.Err, r.Elapsed = err, time.Since(start)
	return r
}

// fetch connects, lists and (optionally) reads; it counts into r.
func fetch(ctx context.Context, s *ServerConfig, o *Options, r *Result) (*catalogFile, error) {
	live, err := s.Expand(o.Lookup)
	if err != nil {
		return nil, err
	}
	sess, err := connect(ctx, live)
	if err != nil {
		return nil, err
	}
	defer closeWithin(sess.c, 2*time.Second)
	if err := sess.listAll(ctx); err != nil {
		return nil, err
	}
	f, stripped, err := newCatalogFile(s, sess)
	if err != nil {
		return nil, err
	}
	r.Stripped = stripped
	r.Tools, r.Prompts, r.Resources, r.Templates = len(f.Tools), len(f.Prompts), len(f.Resources), len(f.ResourceTemplates)
	if o.ReadResources && len(f.Resources) > 0 {
		var st readStats
		if f.ResourceContents, st, err = sess.readTexts(ctx, f.Resources, o.MaxResourceBytes); err != nil {
			return nil, err
		}
		r.Contents, r.Truncated, r.Binary, r.ReadFails = st.read, st.truncated, st.binary, st.failed
	}
	return f, nil
}

// catalogFile is what Run writes for one server: the catalog format
// catalog.LoadDir reads, plus the initialize answer (serverInfo, protocolVersion,
// capabilities) as the published catalogs carry it.
type catalogFile struct {
	Server            string              `json:"server"`
	Package           string              `json:"package,omitempty"`
	ServerInfo        mcp.Implementation  `json:"serverInfo"`
	ProtocolVersion   string              `json:"protocolVersion,omitempty"`
	Capabilities      json.RawMessage     `json:"capabilities,omitempty"`
	Upstream          *ServerConfig       `json:"upstream"`
	Visibility        *catalog.Visibility `json:"visibility,omitempty"`
	Tools             []json.RawMessage   `json:"tools"`
	Prompts           []json.RawMessage   `json:"prompts"`
	Resources         []json.RawMessage   `json:"resources"`
	ResourceTemplates []json.RawMessage   `json:"resourceTemplates"`
	ResourceContents  []Content           `json:"resourceContents,omitempty"`
}

// newCatalogFile assembles the file of s from what sess recorded, without
// the project's keys the upstream answered (stripProjectKeys; it returns
// what held them). The upstream is s as written, unexpanded.
func newCatalogFile(s *ServerConfig, sess *session) (*catalogFile, []string, error) {
	f := &catalogFile{Server: s.Name, Package: s.Package, ServerInfo: sess.init.ServerInfo, ProtocolVersion: sess.init.ProtocolVersion,
		Upstream: s, Visibility: s.Visibility}
	caps := sess.init.Capabilities
	stripped := stripCapabilities(&caps)
	capsJSON, err := json.Marshal(caps)
	if err != nil {
		return nil, nil, err
	}
	f.Capabilities = capsJSON
	for _, l := range []struct {
		dst         *[]json.RawMessage
		method, key string
	}{
		{&f.Tools, string(mcp.MethodToolsList), "tools"},
		{&f.Prompts, string(mcp.MethodPromptsList), "prompts"},
		{&f.Resources, string(mcp.MethodResourcesList), "resources"},
		{&f.ResourceTemplates, string(mcp.MethodResourcesTemplatesList), "resourceTemplates"},
	} {
		if *l.dst, err = sess.rec.items(l.method, l.key); err != nil {
			return nil, nil, err
		}
		names, err := stripItems(l.key, *l.dst)
		if err != nil {
			return nil, nil, err
		}
		stripped = append(stripped, names...)
	}
	return f, stripped, nil
}

// writeCatalog writes f to dir/<server>.json once the build's own checks
// (catalog.CheckServerFile) pass, so that an upstream whose answer would not
// build (a name clients cannot use, an item past the limits) fails here,
// named, and its previous file stays.
func writeCatalog(dir string, f *catalogFile) (path string, err error) {
	path = filepath.Join(dir, f.Server+".json")
	compact, err := json.Marshal(f)
	if err != nil {
		return "", fmt.Errorf("encoding %s: %w", path, err)
	}
	if err := catalog.CheckServerFile(path, compact, nil); err != nil {
		return "", fmt.Errorf("the upstream's answer would not build: %w", err)
	}
	var indented bytes.Buffer // indented once checked: 9,000 levels indent to 160 MB
	if err := json.Indent(&indented, compact, "", "  "); err != nil {
		return "", fmt.Errorf("encoding %s: %w", path, err)
	}
	indented.WriteByte('\n')
	return path, ReplaceFile(dir, path, indented.Bytes())
}

// ReplaceFile writes data to path through a temporary file in dir and a
// rename, so the file is either the old one or the whole new one.
func ReplaceFile(dir, path string, data []byte) (err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("writing %s: %w", path, err)
		}
	}()
	tmp, err := os.CreateTemp(dir, "."+filepath.Base(path)+".tmp-*")
	if err != nil {
		return err
	}
	defer os.Remove(tmp.Name()) // a no-op once renamed
	if _, err := tmp.Write(data); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Chmod(0o644); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Sync(); err != nil {
		tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
