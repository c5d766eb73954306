package index

import "github.com/mcpsearch/mcpsearch/ext"

var _ ext.Describer = (*Index)(nil)

// Describe implements ext.Describer from the manifest: the servers in
// catalog order with their items by kind, the counts, the build time and
// the size of the bundle's files.
func (x *Index) Describe() ext.CatalogInfo {
	m := x.manifest
	info := ext.CatalogInfo{Counts: m.Counts, BuiltAt: m.BuiltAt, Servers: make([]ext.ServerInfo, len(m.Servers))}
	for i, s := range m.Servers {
		info.Servers[i] = ext.ServerInfo{Name: s.Name, Counts: s.Counts}
	}
	for _, f := range m.Files {
		info.BundleBytes += f.Size
	}
	return info
}
