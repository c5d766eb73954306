package retrieval

import (
	"context"
	"slices"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/rank"
	"github.com/mcpsearch/mcpsearch/index/internal/rules"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
)

// Server-level evidence in retrieval. A request that names a system ("in
// bugsnag", "on our heroku postgres") wants that system's tools, and
// re-ranking lifts the named server's candidates (rank.WeightServerNamed);
// but only those BM25 put in the window, and a request's other words
// often match other servers' tools better. So in a command (at most
// rank.MaxCommandWords words) the named server's own best items, by BM25
// on the query restricted to that server, join the window
// (rank.NamedServerCandidates of each); they are read from the one BM25
// pass that finds the window (candidates, bm25.TopGrouped). A long task
// names servers by chance more often than by intent (livemcpbench's
// servers are called finance, search, filesystem): its window is left as
// BM25 and the vectors make it. A server is named for a caller only if it
// has items the caller may see and the filter keeps: a hidden server of
// the same name takes no visible one's place and costs nothing
// (TestNamedServersTheCallerSees).

// serversNamed returns the servers a term of the query names (the words
// of rank.ServerWords), in order, at most rank.MaxNamedServers: only
// those with items of q's kind that the caller (w) may see and q's filter
// keeps, so that a hidden server of the same name takes no visible one's
// place and costs no search.
func (x searcher) serversNamed(q ext.Query, terms []string) ([]string, error) {
	if named, err := x.mayNameServers(q.Kind, terms); err != nil || !named {
		return nil, err // names no server: no table is built or read (a cold start would for nothing)
	}
	byWord, err := x.ServersByWord()
	if err != nil {
		return nil, err
	}
	if !slices.ContainsFunc(terms, func(t string) bool { return len(byWord[t]) > 0 }) {
		return nil, nil
	}
	var out []string
	for _, t := range terms {
		for _, s := range byWord[t] {
			if len(out) == rank.MaxNamedServers {
				return out, nil
			}
			if len(q.Filter.Servers) > 0 && !slices.Contains(q.Filter.Servers, s) || slices.Contains(out, s) {
				continue
			}
			sees, err := x.SeesServer(q.Kind, s)
			if err != nil {
				return nil, err
			}
			if sees {
				out = append(out, s)
			}
		}
	}
	return out, nil
}

// mayNameServers reports whether a term is a word of the name of a
// server with items of kind k: whether the dictionary of k's serverWords
// field, which holds the analysed server name of each item, has it — one
// lookup a term. Only such a server can be named (its items are what
// serversNamed looks for), and every word rank.ServerWords keeps of a name
// is a word of that analysis (server names are ASCII, so their indexed
// compatibility form is the name itself). A query that names none so
// builds no table of every server's words (serverWords), which took the
// first search of a cold start 3–6 ms at 100,000 tools (1,461 servers).
func (x searcher) mayNameServers(k ext.Kind, terms []string) (bool, error) {
	r, err := x.Reader()
	if err != nil {
		return false, err
	}
	defer r.Close()
	for _, t := range terms {
		tfr, err := r.TermFieldReader(context.Background(), []byte(t), schema.KindField(k, schema.ServerWords), false, false, false)
		if err != nil {
			return false, err
		}
		n := tfr.Count()
		tfr.Close()
		if n > 0 {
			return true, nil
		}
	}
	return false, nil
}

// commandNames returns the servers a command (a query of at most
// rank.MaxCommandWords words) names, for the caller (w), as serversNamed
// does; none for a longer query.
func (x searcher) commandNames(r *Request) ([]string, error) {
	if !r.Off.On(rules.NamedServers) || !r.Grammar.Command() {
		return nil, nil
	}
	return x.serversNamed(r.Query, r.TermStrings())
}

// addNamedServers adds to the window (the first window of cands) the best
// items of each server the query names (byServer: BM25's best of each, from
// the pass that found cands) that are not in it, with their BM25 scores,
// and returns the candidates and the new window.
func (x searcher) addNamedServers(cands []rank.Candidate, byServer [][]rank.Candidate, window int) ([]rank.Candidate, int, error) {
	if window == 0 || len(byServer) == 0 {
		return cands, window, nil
	}
	in := map[string]bool{}
	for _, c := range cands[:window] {
		in[c.ID] = true
	}
	var joined []rank.Candidate
	for _, top := range byServer {
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
