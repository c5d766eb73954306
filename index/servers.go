package index

import (
	"context"
	"slices"
	"strings"
	"sync"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/bm25"
	"github.com/mcpsearch/mcpsearch/index/internal/rank"
)

// Server-level evidence in retrieval. A request that names a system ("in
// bugsnag", "on our heroku postgres") wants that system's tools, and
// re-ranking lifts the named server's candidates (rank.WeightServerNamed);
// but only those BM25 put in the window, and a request's other words
// often match other servers' tools better. So in a command (at most
// rank.MaxCommandWords words) the named server's own best items, by BM25
// on the query restricted to that server, join the window
// (rank.NamedServerCandidates of each). A long task names servers by
// chance more often than by intent (livemcpbench's servers are called
// finance, search, filesystem): its window is left as BM25 and the vectors
// make it. A server is named for a caller only if it has items the caller
// may see and the filter keeps: a hidden server of the same name neither
// takes a visible one's place nor costs a search
// (TestNamedServersTheCallerSees).

// serverNames maps the analysed words of the catalog's server names to
// the servers, built on first use.
type serverNames struct {
	once    sync.Once
	servers map[string][]string // word → servers
}

// serversNamed returns the servers a term of the query names (the words
// of rank.ServerWords), in order, at most rank.MaxNamedServers: only
// those with items of q's kind that the caller (w) may see and q's filter
// keeps, so that a hidden server of the same name takes no visible one's
// place and costs no search.
func (x *Index) serversNamed(q ext.Query, w viewer, terms []string) ([]string, error) {
	filter, err := x.names()
	if err != nil {
		return nil, err
	}
	byWord := x.serverWords()
	var out []string
	for _, t := range terms {
		for _, s := range byWord[t] {
			if len(out) == rank.MaxNamedServers {
				return out, nil
			}
			kept := len(q.Filter.Servers) == 0 || slices.Contains(q.Filter.Servers, s)
			if kept && !slices.Contains(out, s) && w.seesAny(filter.servers[q.Kind][s]) {
				out = append(out, s)
			}
		}
	}
	return out, nil
}

// serverWords returns the servers of the catalog by the words of their
// names (rank.ServerWords).
func (x *Index) serverWords() map[string][]string {
	n := &x.serverNames
	n.once.Do(func() {
		n.servers = map[string][]string{}
		for _, s := range x.manifest.Servers {
			for _, w := range rank.ServerWords(s.Name) {
				n.servers[w] = append(n.servers[w], s.Name)
			}
		}
	})
	return n.servers
}

// addNamedServers adds to the window (the first window of cands) the best
// items of each server the query names (serversNamed) that are not in it,
// with their BM25 scores, and returns the candidates and the new window.
func (x *Index) addNamedServers(ctx context.Context, q ext.Query, w viewer, bq bm25.Query, terms []string, cands []rank.Candidate, window int) ([]rank.Candidate, int, error) {
	if len(strings.Fields(q.Text)) > rank.MaxCommandWords || window == 0 {
		return cands, window, nil
	}
	named, err := x.serversNamed(q, w, terms)
	if err != nil || len(named) == 0 {
		return cands, window, err
	}
	in := map[string]bool{}
	for _, c := range cands[:window] {
		in[c.ID] = true
	}
	var joined []rank.Candidate
	for _, s := range named {
		top, err := x.bm25Top(ctx, q.Kind, withServer(bq, s), rank.NamedServerCandidates)
		if err != nil {
			return nil, 0, err
		}
		for _, c := range top {
			if !in[c.ID] {
				in[c.ID] = true
				joined = append(joined, c)
			}
		}
	}
	if len(joined) == 0 {
		return cands, window, nil
	}
	if err := x.nameCandidates(joined); err != nil {
		return nil, 0, err
	}
	out := append(slices.Clone(cands[:window]), joined...)
	for _, c := range cands[window:] {
		if !in[c.ID] {
			out = append(out, c)
		}
	}
	return out, window + len(joined), nil
}

// withServer returns bq restricted to the items of server.
func withServer(bq bm25.Query, server string) bm25.Query {
	filters := append(slices.Clone(bq.Filters), []bm25.Leaf{filterTerm(fieldServer, server)})
	return bm25.Query{Text: bq.Text, Filters: filters}
}
