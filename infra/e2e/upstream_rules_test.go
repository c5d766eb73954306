package e2e

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/ext/upstream"
)

// TestUpstreamRulesAgree: the catalog loader and the gateway read a
// server's upstream by one schema and one rule (ext/catalog's Upstream
// and its Check), each decoding it its own way, so the two are held
// together here: every upstream a catalog loads, the gateway accepts, and
// each the gateway cannot call, the catalog refuses. (The loader is the
// stricter: it also refuses unknown fields and wrong types.) Where both
// refuse, they say the same.
func TestUpstreamRulesAgree(t *testing.T) {
	t.Parallel()
	for _, test := range []struct {
		upstream string
		usable   bool
	}{
		{`{"transport":"streamable-http","url":"https://gitlab.example.com/mcp","headers":{"Authorization":"Bearer ${T}"}}`, true},
		{`{"transport":"streamable-http","url":"HTTP://127.0.0.1:1/mcp"}`, true},
		{`{"transport":"streamable-http","url":"${GITLAB_URL}/mcp"}`, true},
		{`{"transport":"stdio","command":"npx","args":["-y","x"],"env":{"K":"${K}"}}`, true},
		{`{"transport":"sse","url":"http://127.0.0.1:1/sse"}`, false},
		{`{"url":"http://127.0.0.1:1/mcp"}`, false},
		{`{"transport":"streamable-http","url":"file:///etc/passwd"}`, false},
		{`{"transport":"streamable-http","url":"ftp://h/mcp"}`, false},
		{`{"transport":"streamable-http","url":"//h/mcp"}`, false},
		{`{"transport":"streamable-http"}`, false},
		{`{"transport":"stdio","args":["x"]}`, false},
		{`{"transport":"STDIO","command":"npx"}`, false},
	} {
		fsys := fstest.MapFS{"u.json": {Data: []byte(`{"server":"u","upstream":` + test.upstream + `}`)}}
		_, loadErr := catalog.LoadFS(fsys, "cat", nil)
		_, gatewayErr := upstream.ParseConfig(json.RawMessage(test.upstream))
		if (loadErr == nil) != test.usable || (gatewayErr == nil) != test.usable {
			t.Errorf("%s: the catalog says %v, the gateway %v; want both to %s it", test.upstream, loadErr, gatewayErr, map[bool]string{true: "accept", false: "refuse"}[test.usable])
		}
		var le *catalog.LoadError
		if gatewayErr != nil && errors.As(loadErr, &le) && !strings.HasSuffix(gatewayErr.Error(), ": "+le.Err.Error()) {
			t.Errorf("%s: the gateway says %q, the catalog %q: one rule should say one thing", test.upstream, gatewayErr, le.Err)
		}
	}
}
