package ext

import (
	"context"
	"encoding/json"
	"slices"
)

// Per-caller visibility. A catalog item may be restricted to groups and
// OAuth scopes; a caller sees it when it is public, when the caller is a
// member of one of its groups, or when the caller holds one of its scopes.
// The caller's [Access] travels in the request context (the authentication
// middleware, package ext/auth, puts it there) and every Searcher and
// Resolver method honours it: items the caller may not see are never
// returned, counted in a page, or resolved. A context without Access sees
// public items only.

// Access is what one caller may see.
type Access struct {
	// All sees every item: the deployment authenticates no one (auth mode
	// none) or the request is the server's own (start-up checks).
	All bool
	// Groups and Scopes are the caller's, from its token or identity.
	Groups, Scopes []string
}

// WithAccess returns ctx carrying a, normalized (sorted, deduplicated).
func WithAccess(ctx context.Context, a Access) context.Context {
	a.Groups, a.Scopes = sortedSet(a.Groups), sortedSet(a.Scopes)
	return context.WithValue(ctx, accessKey, a)
}

// AccessFrom returns the Access in ctx; without one, the zero Access, which
// sees public items only.
func AccessFrom(ctx context.Context) Access {
	a, _ := ctx.Value(accessKey).(Access)
	return a
}

// Sees reports whether a caller with a may see an item restricted to
// groups and scopes (an item with neither is public).
func (a Access) Sees(groups, scopes []string) bool {
	if a.All || len(groups) == 0 && len(scopes) == 0 {
		return true
	}
	for _, g := range groups {
		if slices.Contains(a.Groups, g) {
			return true
		}
	}
	for _, s := range scopes {
		if slices.Contains(a.Scopes, s) {
			return true
		}
	}
	return false
}

// Key is the canonical form of a that cursors are bound to: two callers
// share cursors only when they see the same items. Normalize a first, as
// [WithAccess] does, so that the order of groups does not matter.
func (a Access) Key() string {
	if a.All {
		return "*"
	}
	key, _ := json.Marshal([2][]string{a.Groups, a.Scopes}) // unambiguous whatever the names hold
	return string(key)
}

func sortedSet(in []string) []string {
	out := slices.Clone(in)
	slices.Sort(out)
	out = slices.Compact(out)
	if len(out) == 0 {
		return nil
	}
	return out
}
