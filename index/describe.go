package index

import "github.com/mcpsearch/mcpsearch/ext"

var _ ext.Describer = (*Index)(nil)

// Describe implements ext.Describer from the manifest and the list of
// servers (read on the first call, serverlist.go): the servers in catalog
// order with their items by kind, the counts, the build time and the size
// of the bundle's files. Its error is a list of servers that cannot be
// read.
func (x *Index) Describe() (ext.CatalogInfo, error) {
	m := x.manifest
	if !x.visibility.Viewer(ext.Access{}).All() {
		// Some items are not public: servers and counts would tell every
		// caller what only some may see.
		return ext.CatalogInfo{BuiltAt: m.BuiltAt, BundleBytes: x.bundleBytes(), Restricted: true}, nil
	}
	servers, err := x.Servers()
	if err != nil {
		return ext.CatalogInfo{}, err
	}
	info := ext.CatalogInfo{Counts: m.Counts, BuiltAt: m.BuiltAt, BundleBytes: x.bundleBytes(), Servers: make([]ext.ServerInfo, len(servers))}
	for i, s := range servers {
		info.Servers[i] = ext.ServerInfo{Name: s.Name, Counts: s.Counts}
	}
	return info, nil
}

func (x *Index) bundleBytes() int64 {
	var n int64
	for _, f := range x.manifest.Files {
		n += f.Size
	}
	return n
}
