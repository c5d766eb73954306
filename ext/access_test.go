package ext

import (
	"context"
	"testing"
)

func TestAccessSees(t *testing.T) {
	a := AccessFrom(WithAccess(context.Background(), Access{Groups: []string{"red", "ops", "red"}, Scopes: []string{"docs:read"}}))
	for _, test := range []struct {
		groups, scopes []string
		want           bool
	}{
		{nil, nil, true},                                // public
		{[]string{"blue", "ops"}, nil, true},            // one group in common
		{[]string{"blue"}, nil, false},                  // none
		{[]string{"blue"}, []string{"docs:read"}, true}, // a scope suffices
		{nil, []string{"docs:write"}, false},            // another scope
		{[]string{"Red"}, nil, false},                   // names are exact
	} {
		if got := a.Sees(test.groups, test.scopes); got != test.want {
			t.Errorf("groups %v scopes %v: got %v, want %v", test.groups, test.scopes, got, test.want)
		}
	}
	if AccessFrom(context.Background()).Sees([]string{"red"}, nil) || !AccessFrom(context.Background()).Sees(nil, nil) {
		t.Error("a context without access must see public items only")
	}
}

// TestAccessKey: callers who see the same items share cursors, whatever
// the order of their groups; others do not.
func TestAccessKey(t *testing.T) {
	key := func(a Access) string { return AccessFrom(WithAccess(context.Background(), a)).Key() }
	if key(Access{Groups: []string{"b", "a"}}) != key(Access{Groups: []string{"a", "b", "a"}}) {
		t.Error("the order of groups changed the key")
	}
	for _, other := range []Access{{Groups: []string{"a"}}, {Scopes: []string{"a", "b"}}, {All: true}, {}} {
		if key(other) == key(Access{Groups: []string{"a", "b"}}) {
			t.Errorf("%+v shares the key of groups [a b]", other)
		}
	}
}
