package index

import (
	"fmt"
	"sync"

	"github.com/mcpsearch/mcpsearch/index/internal/bundle"
)

// The catalog's servers (their names, packages, sources, upstreams, about
// and items by kind) are in a file of their own, ServersFile, which the
// index reads on first use: the directory of servers, Describe, a lookup's
// upstream and a query that may name a server need it; Open and an
// ordinary search do not. At 100,000 tools it is 331 KB; in the manifest
// (indented) it was 433 of 470 KB, which a cold start spent 5–7 ms
// decoding before its first answer (TestOpenAndSearchReadNoServerList).
// Open checks its size, as every file's; its first reading checks its
// SHA-256 against the manifest's (0.2 ms at 100,000 tools, once), so that
// a damaged list is an error when first needed, naming the bundle and the
// file, never another server's upstream or description.

// ServersFile is the name of the list of servers in a bundle directory.
const ServersFile = bundle.ServersFile

// ServerInfo is a server of the catalog and how many items of each kind it
// has (bundle.ServerInfo).
type ServerInfo = bundle.ServerInfo

// serverList is the catalog's servers, read on first use.
type serverList struct {
	once    sync.Once
	err     error
	servers []ServerInfo
}

// Servers returns the catalog's servers in catalog order, each with its
// items by kind, read from the bundle's ServersFile on the first call. The
// caller must not modify them.
func (x *Index) Servers() ([]ServerInfo, error) {
	l := &x.serverList
	l.once.Do(func() { l.servers, l.err = x.readServers() })
	return l.servers, l.err
}

// readServers reads the bundle's list of servers, checked by the hash the
// manifest records.
func (x *Index) readServers() ([]ServerInfo, error) {
	data, err := x.manifest.ReadChecked(x.dir, ServersFile)
	if err != nil {
		return nil, fmt.Errorf("index %s: list of servers: %w", x.dir, err)
	}
	return bundle.DecodeServers(x.dir, data)
}

// ReadServers reads and decodes the list of servers of the bundle at dir.
// It checks neither the manifest nor the file's hash: Open and Verify do.
func ReadServers(dir string) ([]ServerInfo, error) { return bundle.ReadServers(dir) }
