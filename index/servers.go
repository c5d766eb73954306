package index

import (
	"sync"

	"github.com/mcpsearch/mcpsearch/index/internal/rank"
)

// serverNames maps the analysed words of the catalog's server names to
// the servers, built on first use.
type serverNames struct {
	once    sync.Once
	servers map[string][]string // word → servers
}

// serverWords returns the servers of the catalog by the words of their
// names (rank.ServerWords). It panics if the list of servers cannot be
// read (mustServers): Search recovers that into its error.
func (x *Index) serverWords() map[string][]string {
	n := &x.serverNames
	n.once.Do(func() {
		servers := x.mustServers() // before the table: a failed read leaves it nil, and panics again next time
		n.servers = map[string][]string{}
		for _, s := range servers {
			for _, w := range rank.ServerWords(s.Name) {
				n.servers[w] = append(n.servers[w], s.Name)
			}
		}
	})
	return n.servers
}
