package rank

import (
	"strings"

	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// A destructive tool is never first for a request that asks nothing
// destructive (rules.DestroyAsked): an agent acts on the first result,
// and "switch off the flag" answered by delete-feature-flag, or "find
// the slow queries" by pg_kill, does damage the caller never asked for.
// The tool's name says it destroys when one of its words is a verb of
// destroyStems; the request asks for it when one of its words is, or one
// of askStems (cancel, clear, reset, undo…: what may destroy),
// or when one of the words it searched — glosses of another language's
// words and the phrase table's words among them — is a delete or cancel
// of the action table (actionsOf).

// destroyStems are the stems (text.Stem) of the words of a tool's name
// that say it destroys what it is given: deleting, removing, erasing,
// dropping, killing, purging, wiping, revoking, uninstalling,
// truncating, tearing down, discarding; terminating is read by the word
// (terminatePrefix), a terminal's stem being a termination's.
var destroyStems = map[string]bool{
	"delet": true, "remov": true, "eras": true, "destroi": true, "drop": true, "kill": true,
	"purg": true, "wipe": true, "revok": true, "uninstal": true, "truncat": true,
	"teardown": true, "discard": true, "nuke": true,
}

const terminatePrefix = "terminat"

// askStems are the stems of a request's words that may ask to destroy
// without a verb of destroyStems: to cancel, clear, clean up, reset,
// empty, unsubscribe or undo.
var askStems = map[string]bool{"cancel": true, "clear": true, "clean": true, "cleanup": true, "reset": true, "empti": true, "unsubscrib": true, "undo": true}

// Destroys reports whether a tool named name destroys, by the words of
// its name (text.SplitName).
func Destroys(name string) bool {
	for _, w := range text.SplitName(name) {
		if destroys(strings.ToLower(w)) {
			return true
		}
	}
	return false
}

// destroys reports whether a word in lower case is a verb that destroys.
func destroys(w string) bool {
	return destroyStems[text.Stem(w)] || strings.HasPrefix(w, terminatePrefix)
}

// asksToDestroy reports whether a request whose words of letters are
// letters and whose searched terms are terms asks for something
// destructive.
func asksToDestroy(letters, terms []string) bool {
	for _, w := range letters {
		if destroys(w) || askStems[text.Stem(w)] {
			return true
		}
	}
	for _, t := range terms {
		if destroyStems[t] || askStems[t] {
			return true
		}
		for _, a := range actionsOf[t] {
			if a == actDelete || a == actCancel {
				return true
			}
		}
	}
	return false
}

// keepDestroyersBack puts the best candidate of the window that does not
// destroy first when the first destroys, the others keeping their order;
// a window of destroyers only is left as it is.
func keepDestroyersBack(top []Candidate) {
	if len(top) == 0 || !Destroys(top[0].Label) {
		return
	}
	for i := 1; i < len(top); i++ {
		if !Destroys(top[i].Label) {
			c := top[i]
			copy(top[1:i+1], top[:i])
			top[0] = c
			return
		}
	}
}
