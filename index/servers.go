package index

import (
	"sync"

	"github.com/mcpsearch/mcpsearch/index/internal/rank"
)

// serverNames maps the analysed words of the catalog's server names to
// the servers, built on first use.
type serverNames struct {
	once    sync.Once
	err     error
	servers map[string][]string // word → servers
}

// serverWords returns the servers of the catalog by the words of their
// names (rank.ServerWords), or the error of reading the list of servers.
func (x *Index) serverWords() (map[string][]string, error) {
	n := &x.serverNames
	n.once.Do(func() {
		servers, err := x.Servers()
		if err != nil {
			n.err = err
			return
		}
		n.servers = map[string][]string{}
		for _, s := range servers {
			for _, w := range rank.ServerWords(s.Name) {
				n.servers[w] = append(n.servers[w], s.Name)
			}
		}
	})
	return n.servers, n.err
}
