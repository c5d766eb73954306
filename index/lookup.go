package index

import (
	"context"
	"encoding/json"
	"fmt"
	"sync"

	"github.com/yosida95/uritemplate/v3"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
	"github.com/mcpsearch/mcpsearch/index/internal/sight"
)

var _ ext.Resolver = (*Index)(nil)

// Resolve implements ext.Resolver. Tools and prompts are found by a binary
// search of their meta records, which are sorted by canonical name; the
// URIs of resources and templates are read once, on the first resource
// lookup. A URI that several servers list goes to the first of them, in
// catalog order, that has an upstream. An item the caller
// (ext.AccessFrom(ctx)) may not see is not found, as an unknown one.
func (x *Index) Resolve(ctx context.Context, k ext.Kind, name string) (_ *ext.Target, err error) {
	defer recoverDamage(x.dir, &err)
	w := x.visibility.Viewer(ext.AccessFrom(ctx))
	switch k {
	case ext.KindTool, ext.KindPrompt:
		return x.resolveName(w, k, name)
	case ext.KindResource, ext.KindResourceTemplate:
		return x.resolveURI(w, name)
	}
	return nil, fmt.Errorf("%w: kind %q", ext.ErrNotFound, k)
}

// resolveName finds the tool or prompt whose canonical name is name.
func (x *Index) resolveName(w sight.Viewer, k ext.Kind, name string) (*ext.Target, error) {
	n, ok, err := x.findName(k, name)
	if err != nil {
		return nil, err
	}
	if !ok || !w.Sees(k, n) {
		return nil, fmt.Errorf("%w: %s %q", ext.ErrNotFound, k, name)
	}
	return x.target(k, n, name, "")
}

// target reads item n of kind k into a Target. upstreamName, when empty,
// is the item's own label (tools, prompts) or URI.
func (x *Index) target(k ext.Kind, n int, name, upstreamName string) (*ext.Target, error) {
	id := schema.DocID(k, n)
	m, err := x.metaOf(id)
	if err != nil {
		return nil, err
	}
	pos, _ := x.position(id)
	obj, err := x.objects.Get(pos)
	if err != nil {
		return nil, fmt.Errorf("index %s: %w", x.dir, err)
	}
	if upstreamName == "" {
		upstreamName = m.Label
	}
	upstream, err := x.upstreamOf(m.Server)
	if err != nil {
		return nil, err
	}
	return &ext.Target{Kind: k, Server: m.Server, Name: name, UpstreamName: upstreamName, Object: obj, Upstream: upstream}, nil
}

// upstreamOf returns the catalog's upstream object of server, or nil.
func (x *Index) upstreamOf(server string) (json.RawMessage, error) {
	servers, err := x.Servers()
	if err != nil {
		return nil, err
	}
	for _, s := range servers {
		if s.Name == server {
			return s.Upstream, nil
		}
	}
	return nil, nil
}

// uriTable holds the URIs of resources and the templates, read once.
type uriTable struct {
	once       sync.Once
	err        error
	resources  map[string][]int // URI → ordinals of the resources listing it, in catalog order
	byTemplate map[string][]int // URI template → ordinals of the templates listing it, in catalog order
	templates  []uriTemplate    // in catalog order, those that parse
}

type uriTemplate struct {
	n       int
	pattern *uritemplate.Template
}

// resolveURI finds a resource with URI uri, or else the first template
// that matches it, of those w sees, preferring in both cases items whose
// server has an upstream.
func (x *Index) resolveURI(w sight.Viewer, uri string) (*ext.Target, error) {
	t := &x.uris
	t.once.Do(func() { t.err = x.loadURIs() })
	if t.err != nil {
		return nil, t.err
	}
	var fallback *ext.Target
	for _, n := range t.resources[uri] {
		if !w.Sees(ext.KindResource, n) {
			continue
		}
		target, err := x.target(ext.KindResource, n, uri, uri)
		if err != nil || len(target.Upstream) > 0 {
			return target, err
		}
		if fallback == nil {
			fallback = target
		}
	}
	for _, tmpl := range t.templates {
		if !w.Sees(ext.KindResourceTemplate, tmpl.n) || !tmpl.pattern.Regexp().MatchString(uri) {
			continue
		}
		target, err := x.target(ext.KindResourceTemplate, tmpl.n, uri, uri)
		if err != nil || len(target.Upstream) > 0 {
			return target, err
		}
		if fallback == nil {
			fallback = target
		}
	}
	if fallback != nil {
		return fallback, nil
	}
	return nil, fmt.Errorf("%w: resource %q", ext.ErrNotFound, uri)
}

// loadURIs reads the URI of every resource and template.
func (x *Index) loadURIs() error {
	t := &x.uris
	t.resources, t.byTemplate = map[string][]int{}, map[string][]int{}
	for n := range x.manifest.Counts[ext.KindResource] {
		var r struct{ URI string }
		if _, err := x.readObject(ext.KindResource, n, &r); err != nil {
			return err
		}
		t.resources[r.URI] = append(t.resources[r.URI], n)
	}
	for n := range x.manifest.Counts[ext.KindResourceTemplate] {
		var r struct{ URITemplate string }
		if _, err := x.readObject(ext.KindResourceTemplate, n, &r); err != nil {
			return err
		}
		t.byTemplate[r.URITemplate] = append(t.byTemplate[r.URITemplate], n)
		p, err := uritemplate.New(r.URITemplate)
		if err != nil {
			continue // a template that does not parse matches nothing
		}
		t.templates = append(t.templates, uriTemplate{n: n, pattern: p})
	}
	return nil
}

// readObject decodes the object of item n of kind k into v and returns its
// server.
func (x *Index) readObject(k ext.Kind, n int, v any) (string, error) {
	id := schema.DocID(k, n)
	m, err := x.metaOf(id)
	if err != nil {
		return "", err
	}
	pos, _ := x.position(id)
	obj, err := x.objects.Get(pos)
	if err != nil {
		return "", fmt.Errorf("index %s: %w", x.dir, err)
	}
	if err := json.Unmarshal(obj, v); err != nil {
		return "", fmt.Errorf("index %s: document %s: %w", x.dir, id, err)
	}
	return m.Server, nil
}
