package ext

import "time"

// Describer is implemented by a Searcher that can describe the catalog it
// holds; the server then adds the description to the extension's settings
// in the initialize and server/discover results, under "catalog".
// index.Index implements it.
type Describer interface {
	Describe() CatalogInfo
}

// CatalogInfo describes a catalog: its servers, its items by kind, when it
// was built and how large its bundle is. The description is the same for
// every caller, so a catalog whose items are not all public describes
// neither its servers nor its counts: Restricted is set instead.
type CatalogInfo struct {
	Servers     []ServerInfo `json:"servers"`
	Counts      map[Kind]int `json:"counts"`
	BuiltAt     time.Time    `json:"builtAt"`
	BundleBytes int64        `json:"bundleBytes"`
	Restricted  bool         `json:"restricted,omitempty"`
}

// ServerInfo is one server of a catalog and its items by kind.
type ServerInfo struct {
	Name   string       `json:"name"`
	Counts map[Kind]int `json:"counts"`
}
