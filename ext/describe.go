package ext

import (
	"context"
	"time"
)

// Describer is implemented by a Searcher that can describe the catalog it
// holds; the server then adds the description to the extension's settings
// in the initialize and server/discover results, under "catalog". The
// server asks once, for the first of those results, not at start
// (index.Index reads its list of servers only then); an error fails that
// result and those after it.
// index.Index implements it.
type Describer interface {
	Describe() (CatalogInfo, error)
}

// RulesVersioner is implemented by a Searcher whose answers depend on
// knowledge besides its index: the rules, tables and models it reads at
// query time, which a new release may change over the same index. The
// server adds RulesVersion to the extension's settings, under "rules",
// beside "index" (Searcher.Version), so that two answers to one query can
// be told apart by either. index.Index implements it (index.QueryID).
type RulesVersioner interface {
	RulesVersion() string
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

// Directory is implemented by a Searcher that can tell one caller which
// servers it may reach; the server then names them to the model, in the
// instructions of its initialize and server/discover results (and, in
// meta-tool mode, in the description of search_tools). Unlike a
// [CatalogInfo], a directory is the caller's own, so it is given whether
// or not the catalog's items are all public. index.Index implements it.
type Directory interface {
	// Directory returns, in catalog order, the servers of which the caller
	// (AccessFrom(ctx)) may see at least one item. A server of which it
	// sees nothing is left out, exactly as one that does not exist, and
	// nothing of an entry tells of items the caller may not see.
	Directory(ctx context.Context) ([]ServerEntry, error)
}

// ServerEntry is one server of a caller's directory.
type ServerEntry struct {
	Name string
	// About says in a few words what the server is for (the server's own
	// description, or its tools' commonest words), or is empty.
	About string
	// Items counts the items of every kind of the server that the caller
	// may see.
	Items int
}
