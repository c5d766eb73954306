package server

import (
	"fmt"
	"sort"

	"github.com/mcpsearch/mcpsearch/ext"
)

// maxSuggestDistance is how far (in edits) a method name may be from one
// the server answers for the -32601 answer to suggest it: a typo
// (tools/serch, tool/search, Tools/list), not another word.
const maxSuggestDistance = 2

// methodNotFound is the message of -32601 for method, in mcp-go's words,
// with the nearest method the server answers in era when one is near.
func methodNotFound(method string, e era) string {
	shown := method
	if len(method) > ext.MaxEchoBytes {
		shown = ext.QuoteShort(method)
	}
	if near := nearestMethod(method, e); near != "" {
		return fmt.Sprintf("Method %s not found; did you mean %s?", shown, near)
	}
	return fmt.Sprintf("Method %s not found", shown)
}

// nearestMethod returns the method of the table, answered in era e, at
// the fewest edits from method, if within maxSuggestDistance; ties go to
// the first in alphabetical order. A name much longer or shorter than
// every method is not compared, so the cost is bounded whatever its length.
func nearestMethod(method string, e era) string {
	best, bestDist := "", maxSuggestDistance+1
	for _, name := range answeredMethods() {
		if abs(len(name)-len(method)) > maxSuggestDistance || methods[name].era.refuse(name, e) != nil {
			continue
		}
		if d := ext.Edits(method, name); d < bestDist {
			best, bestDist = name, d
		}
	}
	return best
}

// answeredMethods lists, sorted, the methods of the table that requests
// may call (notifications have no handler).
func answeredMethods() []string {
	var out []string
	for name, m := range methods {
		if m.handle != nil {
			out = append(out, name)
		}
	}
	sort.Strings(out)
	return out
}

func abs(n int) int {
	if n < 0 {
		return -n
	}
	return n
}
