package index

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
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
const ServersFile = "servers.json"

// ServerInfo is a server of the catalog and how many items of each kind it has.
type ServerInfo struct {
	catalog.Server
	Counts map[ext.Kind]int `json:"counts"`
}

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
	data, err := x.manifest.readChecked(x.dir, ServersFile)
	if err != nil {
		return nil, fmt.Errorf("index %s: list of servers: %w", x.dir, err)
	}
	return decodeServers(x.dir, data)
}

// ReadServers reads and decodes the list of servers of the bundle at dir.
// It checks neither the manifest nor the file's hash: Open and Verify do.
func ReadServers(dir string) ([]ServerInfo, error) {
	data, err := os.ReadFile(filepath.Join(dir, ServersFile))
	if err != nil {
		return nil, fmt.Errorf("index %s: list of servers: %w", dir, err)
	}
	return decodeServers(dir, data)
}

// decodeServers decodes data, the list of servers of the bundle at dir.
func decodeServers(dir string, data []byte) ([]ServerInfo, error) {
	var servers []ServerInfo
	if err := json.Unmarshal(data, &servers); err != nil {
		return nil, fmt.Errorf("index %s: %s is not a valid list of servers (mcpsearch verify checks every file's hash): %w", dir, ServersFile, err)
	}
	for i, s := range servers {
		if s.Name == "" {
			return nil, fmt.Errorf("index %s: %s: server %d has no name (mcpsearch verify checks every file's hash)", dir, ServersFile, i)
		}
	}
	return servers, nil
}

// writeServers writes the list of cat's servers, each with its items by
// kind, into the bundle at dir.
func writeServers(cat *catalog.Catalog, dir string) error {
	perServer := map[string]map[ext.Kind]int{}
	for _, it := range cat.Items {
		if perServer[it.Server] == nil {
			perServer[it.Server] = map[ext.Kind]int{}
		}
		perServer[it.Server][it.Kind]++
	}
	servers := make([]ServerInfo, len(cat.Servers))
	for i, s := range cat.Servers {
		servers[i] = ServerInfo{Server: s, Counts: perServer[s.Name]}
	}
	data, err := json.Marshal(servers)
	if err != nil {
		return fmt.Errorf("encoding the list of servers: %w", err)
	}
	return os.WriteFile(filepath.Join(dir, ServersFile), append(data, '\n'), 0o644)
}
