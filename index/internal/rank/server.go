package rank

import "github.com/mcpsearch/mcpsearch/index/internal/text"

// serverEvidence lifts the candidates of a server the query names: a
// request that says where ("send a Slack message", "in our Sentry") is
// answered by that system's own tools before another server's connector
// to it. A server is named when a query term is one of the words of its
// name (text.Analyze; words every server name carries, such as mcp and
// server, are not, being generic or stop words). Each candidate of a named
// server gains weightServerNamed.
func serverEvidence(q Query, top []Candidate) {
	named := map[string]bool{}
	for i := range top {
		c := &top[i]
		is, seen := named[c.Server]
		if !seen {
			is = namesServer(q, c.Server)
			named[c.Server] = is
		}
		if is {
			c.Signals.ServerScore += weightServerNamed
			c.Score = c.Signals.Score()
		}
	}
}

// namesServer reports whether a term of q is a word of the server's name.
func namesServer(q Query, server string) bool {
	for _, w := range ServerWords(server) {
		if q.Terms[w] {
			return true
		}
	}
	return false
}

// ServerWords are the analysed words of a server's name that name a
// system: not generic words, nor words every server name carries.
func ServerWords(server string) []string {
	var out []string
	for _, w := range text.Analyze(server) {
		if !text.IsGeneric(w) && !serverNameWords[w] {
			out = append(out, w)
		}
	}
	return out
}

// NamesASystem reports whether an analysed word may name a system when
// a server's name holds it: not a word every server name carries.
func NamesASystem(w string) bool { return !serverNameWords[w] }

// serverNameWords are words of server names that name no system.
var serverNameWords = map[string]bool{"mcp": true, "server": true, "api": true, "offici": true, "tool": true}
