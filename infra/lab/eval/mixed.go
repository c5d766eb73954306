package eval

import (
	"math/rand/v2"
	"slices"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// A mixed catalog is a catalog where only some items carry written
// requests, as every real deployment is: the servers a library or a team
// wrote requests for beside servers nobody did. The measure of fairness
// (issue 35) compares each query three ways over one catalog: as shipped
// (every written request), with none, and mixed — the requests of a
// seeded share of its servers removed. A query whose tools all lie on
// servers stripped of their requests should do no worse mixed than when
// no item has requests; a query whose tools all kept theirs, no worse
// than as shipped.

// Side says where a query's tools lie in a mixed catalog.
type Side string

// The sides of a query.
const (
	// Stripped: every tool the query needs lies on a server whose
	// requests were removed.
	Stripped Side = "stripped"
	// Kept: every tool the query needs lies on a server that kept its
	// requests.
	Kept Side = "kept"
	// Across: its tools lie on both, or on none of the catalog's.
	Across Side = "across"
)

// ServersWithRequests are the names of cat's servers some of whose items
// carry written requests, in the catalog's order.
func ServersWithRequests(cat *catalog.Catalog) []string {
	asked := map[string]bool{}
	for _, it := range cat.Items {
		if len(it.Requests) > 0 {
			asked[it.Server] = true
		}
	}
	var out []string
	for _, s := range cat.Servers {
		if asked[s.Name] {
			out = append(out, s.Name)
		}
	}
	return out
}

// StripShare chooses, from seed, round(share × n) of the n servers with
// written requests of cat, whose requests a mixed catalog removes. The
// same seed chooses the same servers.
func StripShare(cat *catalog.Catalog, share float64, seed uint64) map[string]bool {
	servers := ServersWithRequests(cat)
	rng := rand.New(rand.NewPCG(seed, 0x6a09e667f3bcc908))
	rng.Shuffle(len(servers), func(i, j int) { servers[i], servers[j] = servers[j], servers[i] })
	n := int(share*float64(len(servers)) + 0.5)
	out := make(map[string]bool, n)
	for _, s := range servers[:min(n, len(servers))] {
		out[s] = true
	}
	return out
}

// WithoutRequests returns a copy of cat whose items of the servers in
// strip carry no written requests (all of them when strip is nil); cat
// is not changed.
func WithoutRequests(cat *catalog.Catalog, strip map[string]bool) *catalog.Catalog {
	out := *cat
	out.Items = slices.Clone(cat.Items)
	for i := range out.Items {
		if strip == nil || strip[out.Items[i].Server] {
			out.Items[i].Requests = nil
		}
	}
	return &out
}

// BuildLoaded builds and opens the bundle of a catalog already loaded
// (catalog.LoadDir), as BuildCatalog does for its directory: its tools
// are known by their canonical names.
func BuildLoaded(cat *catalog.Catalog) (*Set, error) {
	ids := map[string]string{}
	for _, it := range cat.Items {
		if it.Kind == ext.KindTool {
			ids[it.Name] = it.Name
		}
	}
	return openBundle(cat, ids, nil)
}

// SideOf says where the tools q needs lie when the servers of strip lose
// their requests; server maps each tool's canonical name to its server.
func SideOf(q Query, server map[string]string, strip map[string]bool) Side {
	stripped, kept := 0, 0
	for _, group := range q.Groups() {
		for _, id := range group {
			s, ok := server[id]
			switch {
			case !ok:
				return Across
			case strip[s]:
				stripped++
			default:
				kept++
			}
		}
	}
	switch {
	case stripped > 0 && kept == 0:
		return Stripped
	case kept > 0 && stripped == 0:
		return Kept
	}
	return Across
}

// ToolServers maps each tool of cat, by its canonical name, to its
// server.
func ToolServers(cat *catalog.Catalog) map[string]string {
	out := map[string]string{}
	for _, it := range cat.Items {
		if it.Kind == ext.KindTool {
			out[it.Name] = it.Server
		}
	}
	return out
}
