package eval

import (
	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/ext/catalog/library"
)

// LibraryCover is what the library of public servers' requests gave a set
// of tools: the tools given requests, of how many.
type LibraryCover struct {
	Tools, Covered, ByDescription int
	// Identities are the library servers that gave requests.
	Identities []string
}

// AttachLibrary gives each tool without requests of tools those the
// library holds for it, as a team's build would (library.Attach): each of
// the set's servers (the tools' server field; "" for a set without one)
// is known by packageOf(server) when that is not empty — the package a
// team that runs the set's servers names in its servers file — else by
// the server field as its serverInfo.name. It changes tools in place and
// says what it covered.
func AttachLibrary(tools []Tool, lib *library.Library, packageOf func(server string) string) LibraryCover {
	cat := &catalog.Catalog{}
	index := map[string]int{}
	for i, t := range tools {
		slug := serverSlug(t.Server)
		if _, ok := index[slug]; !ok {
			index[slug] = len(cat.Servers)
			var field string
			if t.Server != nil {
				field = *t.Server
			}
			s := catalog.Server{Name: slug, Package: packageOf(field)}
			if s.Package == "" {
				s.InfoName = field
			}
			cat.Servers = append(cat.Servers, s)
		}
		cat.Items = append(cat.Items, catalog.Item{Kind: ext.KindTool, Server: slug, Name: slug + "__" + t.Name, UpstreamName: t.Name,
			Description: t.Description, Requests: tools[i].Requests})
	}
	cov := library.Attach(cat, lib)
	out := LibraryCover{Tools: len(tools), ByDescription: cov.ByDescription}
	for i := range cat.Items {
		if cat.Items[i].RequestsFrom == catalog.RequestsFromLibrary {
			tools[i].Requests = cat.Items[i].Requests
			out.Covered++
		}
	}
	for _, s := range cov.Servers {
		if s.Identity != "" && s.FromLibrary > 0 {
			out.Identities = append(out.Identities, s.Identity)
		}
	}
	return out
}
