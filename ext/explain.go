package ext

import (
	"encoding/json"
	"fmt"
	"time"
)

// The explain option. A search request whose params carry
//
//	"_meta": {"io.github.mcpsearch/explain": true}
//
// gets, on each item of the page, an explanation of its rank in
// _meta["io.github.mcpsearch/explain"]: which fields and terms matched with
// what weight, and the re-ranking signals. The catalog computes it (for the
// page's items only, so the cost is bounded by the page size); ext carries
// it opaquely. It is off unless asked, and does not change the ranking or
// the cursors.
const MetaExplain = "io.github.mcpsearch/explain"

// explainRequested reads the explain option from a request's _meta. A value
// other than a boolean wraps ErrInvalidParams.
func explainRequested(meta map[string]json.RawMessage) (bool, error) {
	raw, ok := meta[MetaExplain]
	if !ok || string(raw) == "null" {
		return false, nil
	}
	var on bool
	if err := json.Unmarshal(raw, &on); err != nil {
		return false, fmt.Errorf("%w: _meta[%q] must be a boolean", ErrInvalidParams, MetaExplain)
	}
	return on, nil
}

// Describer is implemented by a catalog that can describe what it holds;
// the server then adds the description to the extension's settings in the
// initialize and server/discover results, under "catalog". index.Index
// implements it.
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

// MaxDescribedServers bounds the servers listed in the capability, so the
// initialize result of a very large catalog stays small; past it the list is
// cut and "serversTruncated" is set.
const MaxDescribedServers = 500

// catalogSettings is the "catalog" member of the extension settings, or nil
// when the catalog does not describe itself.
func catalogSettings(cat Catalog) map[string]any {
	d, ok := cat.(Describer)
	if !ok {
		return nil
	}
	info := d.Describe()
	if info.Restricted {
		return map[string]any{
			"restricted":  true,
			"builtAt":     info.BuiltAt.UTC().Format(time.RFC3339),
			"bundleBytes": info.BundleBytes,
		}
	}
	settings := map[string]any{
		"serverCount": len(info.Servers),
		"counts":      info.Counts,
		"builtAt":     info.BuiltAt.UTC().Format(time.RFC3339),
		"bundleBytes": info.BundleBytes,
	}
	if len(info.Servers) > MaxDescribedServers {
		info.Servers = info.Servers[:MaxDescribedServers]
		settings["serversTruncated"] = true
	}
	settings["servers"] = info.Servers
	return settings
}
