package upstream

import (
	"errors"
	"reflect"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// TestExpand: every field's references are resolved, the text around them
// kept, and the first unset variable in field order is the one named.
func TestExpand(t *testing.T) {
	lookup := env(map[string]string{"HOST": "gitlab.example", "TOKEN": "s3cret", "KEY": "k"})
	cfg := &Config{Upstream: catalog.Upstream{Transport: TransportStdio, URL: "https://${HOST}/mcp", Command: "run-${HOST}",
		Args: []string{"--key=${KEY}", "plain"}, Headers: map[string]string{"Authorization": "Bearer ${TOKEN}"},
		Env: map[string]string{"API_KEY": "${KEY}${KEY}"}}}
	got, err := cfg.Expand(lookup)
	if err != nil {
		t.Fatal(err)
	}
	want := &Config{Upstream: catalog.Upstream{Transport: TransportStdio, URL: "https://gitlab.example/mcp", Command: "run-gitlab.example",
		Args: []string{"--key=k", "plain"}, Headers: map[string]string{"Authorization": "Bearer s3cret"},
		Env: map[string]string{"API_KEY": "kk"}}}
	if got.redact == nil {
		t.Error("the expanded config does not know its values")
	}
	got.redact = nil
	if !reflect.DeepEqual(got, want) {
		t.Errorf("expanded to %+v, want %+v", got, want)
	}
	if cfg.URL != "https://${HOST}/mcp" {
		t.Errorf("Expand changed its receiver: url %q", cfg.URL)
	}
	for _, test := range []struct {
		cfg         Config
		field, name string
	}{
		{Config{Upstream: catalog.Upstream{URL: "${A}", Command: "${B}"}}, "url", "A"},
		{Config{Upstream: catalog.Upstream{Args: []string{"x", "${C}"}}}, "args[1]", "C"},
		{Config{Upstream: catalog.Upstream{Headers: map[string]string{"Z": "${Z}", "A": "${A}"}, Env: map[string]string{"E": "${E}"}}}, "headers.A", "A"},
		{Config{Upstream: catalog.Upstream{Env: map[string]string{"B": "${B}", "A": "ok", "C": "${C}"}}}, "env.B", "B"},
	} {
		_, err := test.cfg.Expand(env(map[string]string{}))
		var unset *UnsetVarError
		if !errors.As(err, &unset) || unset.Field != test.field || unset.Var != test.name {
			t.Errorf("%+v: got %v, want %s unset in %s", test.cfg, err, test.name, test.field)
		}
	}
}
