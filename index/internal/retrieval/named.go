package retrieval

import (
	"context"
	"fmt"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/bm25"
	"github.com/mcpsearch/mcpsearch/index/internal/rank"
	"github.com/mcpsearch/mcpsearch/index/internal/rules"
	"github.com/mcpsearch/mcpsearch/index/internal/schema"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// A named server is heard (rules.NamedServerItems, issue 36): when a
// word the query searched is a word of the name of a server the caller
// sees, that server's best NamedServerItems items for the query join the
// re-ranking window, however many items of other servers score above
// them — "tell the team on slack the deploy is done" had no Slack tool
// among its first 1,000, a Lark tool's written request repeating its
// words. The server's items are found by BM25 restricted to the items
// whose server words hold the word (the schema.ServerWords field), with
// the search's own filters, so a server the caller does not see holds
// nothing the restriction lets through and is never weighed. A joined
// item is marked Named: it is in the window because it was named, so
// named-server-fits does not read it as a named server that fits
// (namesServer).

// namedServerLeaves are the clauses restricting a search of kind to the
// items of the servers terms name: one leaf a term that names a server
// (namesAServer); nil when none does.
func (x searcher) namedServerLeaves(kind ext.Kind, terms []string) ([]bm25.Leaf, error) {
	d, done, err := x.callerDicts(kind)
	if err != nil {
		return nil, err
	}
	defer done()
	var leaves []bm25.Leaf
	for _, t := range terms {
		if text.IsGeneric(t) || !rank.NamesASystem(t) {
			continue
		}
		ok, err := namesAServer(d, t)
		if err != nil {
			return nil, err
		}
		if ok {
			leaves = append(leaves, bm25.Leaf{Field: schema.KindField(kind, schema.ServerWords), Term: t})
		}
	}
	return leaves, nil
}

// namesAServer reports whether a term names a server among the items the
// caller sees: some hold it in their server's name, and at least as many
// as hold it in their own — "slack" names Slack, while "search", which
// brave-search's name holds and hundreds of tools' names do, asks to
// search, and "calendar" is a word of more tools' names than Google
// Calendar's.
func namesAServer(d *termDicts, t string) (bool, error) {
	server, err := d.fieldFreq(schema.ServerWords, t)
	if err != nil || server == 0 {
		return false, err
	}
	name, err := d.fieldFreq(schema.Name, t)
	if err != nil {
		return false, err
	}
	return server >= name, nil
}

// addNamedServers returns cands with the best NamedServerItems items of
// the servers the query of r names (namedServerLeaves) joined to the
// window of its first window candidates, and the window's new length.
func (x searcher) addNamedServers(ctx context.Context, kind ext.Kind, r *Request, bq bm25.Query, cands []rank.Candidate, window int) ([]rank.Candidate, int, error) {
	if !r.Off.On(rules.NamedServerItems) || len(cands) == 0 {
		return cands, window, nil
	}
	leaves, err := x.namedServerLeaves(kind, r.TermStrings())
	if err != nil || len(leaves) == 0 {
		return cands, window, err
	}
	nq := bq
	nq.Filters = append(append([][]bm25.Leaf(nil), bq.Filters...), leaves)
	nq.Allowed = nil
	named, err := x.bm25Top(ctx, kind, nq, NamedServerItems*NamedServersJoined)
	if err != nil {
		return nil, 0, fmt.Errorf("%s: named servers: %w", x.Name(), err)
	}
	if err := x.nameCandidates(named); err != nil {
		return nil, 0, err
	}
	cands, window = joinNamed(cands, window, bestOfEachServer(named))
	return cands, window, nil
}

// bestOfEachServer keeps, of named (best first, their servers read), the
// first NamedServerItems of each server: one word may name two servers
// ("gitlab" names mcp-gitlab and gitlab-zereight), and each is heard.
func bestOfEachServer(named []rank.Candidate) []rank.Candidate {
	per := map[string]int{}
	out := named[:0]
	for _, c := range named {
		if per[c.Server] < NamedServerItems {
			per[c.Server]++
			out = append(out, c)
		}
	}
	return out
}

// joinNamed appends to the window of cands the candidates of named that
// are not in it, moving those found past it.
func joinNamed(cands []rank.Candidate, window int, named []rank.Candidate) ([]rank.Candidate, int) {
	in := map[string]bool{}
	for _, c := range cands[:window] {
		in[c.ID] = true
	}
	var join []rank.Candidate
	for _, c := range named {
		if !in[c.ID] {
			c.Named = true
			join = append(join, c)
			in[c.ID] = true
		}
	}
	if len(join) == 0 {
		return cands, window
	}
	out := make([]rank.Candidate, 0, len(cands)+len(join))
	out = append(append(out, cands[:window]...), join...)
	for _, c := range cands[window:] {
		if !in[c.ID] {
			out = append(out, c)
		}
	}
	return out, window + len(join)
}
