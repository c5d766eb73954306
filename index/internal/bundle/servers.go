package bundle

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// ServersFile is the name of the list of servers in a bundle directory.
const ServersFile = "servers.json"

// ServerInfo is a server of the catalog and how many items of each kind it has.
type ServerInfo struct {
	catalog.Server
	Counts map[ext.Kind]int `json:"counts"`
}

// ReadServers reads and decodes the list of servers of the bundle at dir.
// It checks neither the manifest nor the file's hash: Open and Verify do.
func ReadServers(dir string) ([]ServerInfo, error) {
	data, err := os.ReadFile(filepath.Join(dir, ServersFile))
	if err != nil {
		return nil, fmt.Errorf("index %s: list of servers: %w", dir, err)
	}
	return DecodeServers(dir, data)
}

// DecodeServers decodes data, the list of servers of the bundle at dir.
func DecodeServers(dir string, data []byte) ([]ServerInfo, error) {
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
