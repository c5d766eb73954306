package main

import (
	"context"
	"log/slog"
	"strings"
	"testing"
)

// TestListModeLogged: the start logs the list mode chosen and why, with
// auto's measurement against its threshold; always-listed tools that full
// mode leaves without meta tools are warned of, naming the variable.
func TestListModeLogged(t *testing.T) {
	idx := mustGatewayIndex(t, nil)
	for _, test := range []struct {
		name string
		env  map[string]string
		want []string // parts of the logs, in order
	}{
		{"auto, small catalog", map[string]string{"MCPSEARCH_LIST_MODE": "auto", "MCPSEARCH_ALWAYS_TOOLS": "gitlab__whoami"}, []string{
			`msg="list mode" configured=auto chosen=full reason="the tool definitions are `, ` characters of JSON, not more than the threshold of 45000"`,
			`level=WARN msg="MCPSEARCH_ALWAYS_TOOLS is set, but tools/list lists every tool (list mode full): search_tools and call_tool are not offered"`}},
		{"auto, large catalog", map[string]string{"MCPSEARCH_LIST_MODE": "auto", "MCPSEARCH_META_THRESHOLD_CHARS": "100"}, []string{
			`msg="list mode" configured=auto chosen=meta reason="the tool definitions are more than the threshold of 100 characters of JSON"`}},
		{"meta", map[string]string{"MCPSEARCH_LIST_MODE": "meta"}, []string{`msg="list mode" configured=meta chosen=meta reason=configured`}},
		{"full", nil, []string{`msg="list mode" configured=full chosen=full reason=configured`}},
	} {
		t.Run(test.name, func(t *testing.T) {
			var logs strings.Builder
			if _, err := newGatewayHandlerLogging(t, idx, test.env, slog.New(slog.NewTextHandler(&logs, nil))); err != nil {
				t.Fatal(err)
			}
			rest := logs.String()
			for _, part := range test.want {
				i := strings.Index(rest, part)
				if i < 0 {
					t.Fatalf("logs %q lack %q (after what came before)", logs.String(), part)
				}
				rest = rest[i+len(part):]
			}
		})
	}
}

// TestSearchToolsNamesCallToolOnlyWhenOffered: search_tools tells the
// model to call with call_tool only where call_tool is listed.
func TestSearchToolsNamesCallToolOnlyWhenOffered(t *testing.T) {
	for _, test := range []struct {
		name     string
		upstream bool
	}{{"with upstreams", true}, {"without upstreams", false}} {
		t.Run(test.name, func(t *testing.T) {
			idx := mustIndex(t)
			if test.upstream {
				idx = mustGatewayIndex(t, nil)
			}
			h, err := newGatewayHandler(t, idx, map[string]string{"MCPSEARCH_LIST_MODE": "meta"})
			if err != nil {
				t.Fatal(err)
			}
			list := lambdaCall(t, h, context.Background(), []byte(`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`))
			names := toolNames(t, list)
			desc, _ := path(list, "result", "tools", 0, "description").(string)
			offered := len(names) > 1 && names[1] == "call_tool"
			if offered != test.upstream || strings.Contains(desc, "call_tool") != offered || !strings.Contains(desc, "exact name") {
				t.Errorf("tools %v: search_tools says %q; want call_tool named exactly when it is listed", names, desc)
			}
			honest := strings.Contains(desc, "It does not run them") && strings.Contains(desc, "Servers indexed here") && !strings.Contains(desc, "reach")
			if honest == test.upstream {
				t.Errorf("tools %v: search_tools says %q; want it to say it runs nothing exactly when there is no call_tool", names, desc)
			}
		})
	}
}
