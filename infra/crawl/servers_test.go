package crawl

import (
	"reflect"
	"strings"
	"testing"
)

const goodYAML = `
servers:
  - name: gitlab
    transport: streamable-http
    url: https://gitlab.example.com/mcp
    headers: {Authorization: "Bearer ${GITLAB_TOKEN}"}
    visibility: {groups: [dev], scopes: ["repo:read"]}
  - name: everything
    transport: stdio
    command: npx
    args: ["-y", "@modelcontextprotocol/server-everything"]
    env: {K: "${V}"}
`

const goodJSON = `{"servers": [
  {"name": "gitlab", "transport": "streamable-http", "url": "https://gitlab.example.com/mcp",
   "headers": {"Authorization": "Bearer ${GITLAB_TOKEN}"}, "visibility": {"groups": ["dev"], "scopes": ["repo:read"]}},
  {"name": "everything", "transport": "stdio", "command": "npx",
   "args": ["-y", "@modelcontextprotocol/server-everything"], "env": {"K": "${V}"}}]}`

func TestParseServersYAMLAndJSON(t *testing.T) {
	y, err := ParseServers("servers.yaml", []byte(goodYAML))
	if err != nil {
		t.Fatal(err)
	}
	j, err := ParseServers("servers.json", []byte(strings.ReplaceAll(goodJSON, "  ", "\t"))) // tabs: not YAML
	if err != nil {
		t.Fatal(err)
	}
	y.File, j.File = "", ""
	if !reflect.DeepEqual(y, j) {
		t.Errorf("YAML and JSON differ:\n%+v\n%+v", y, j)
	}
	g := y.Servers[0]
	if g.Name != "gitlab" || g.Headers["Authorization"] != "Bearer ${GITLAB_TOKEN}" || g.Visibility == nil || g.Visibility.Groups[0] != "dev" || g.Visibility.Scopes[0] != "repo:read" {
		t.Errorf("got %+v, want gitlab with its header unexpanded, group dev and scope repo:read", g)
	}
	if e := y.Servers[1]; e.Command != "npx" || len(e.Args) != 2 || e.Env["K"] != "${V}" {
		t.Errorf("got %+v, want the stdio server as written", e)
	}
}

func TestParseServersErrors(t *testing.T) {
	const http = `{"name": "a", "transport": "streamable-http", "url": "http://127.0.0.1:1/mcp"}`
	list := func(servers ...string) string { return `{"servers": [` + strings.Join(servers, ",") + `]}` }
	for _, test := range []struct {
		name, file, want string
	}{
		{"bad transport", list(http, `{"name": "b", "transport": "sse", "url": "http://x/"}`), `servers.yaml: servers[1].transport: unknown transport "sse"`},
		{"missing transport", list(`{"name": "b", "url": "http://x/"}`), "servers.yaml: servers[0].transport: missing"},
		{"missing url", list(http, strings.Replace(http, `"a"`, `"b"`, 1), `{"name": "c", "transport": "streamable-http"}`), "servers.yaml: servers[2].url: missing"},
		{"not a url", list(`{"name": "b", "transport": "streamable-http", "url": "gitlab"}`), `servers[0].url: "gitlab" is not an http(s) URL`},
		{"missing command", list(`{"name": "b", "transport": "stdio", "args": ["x"]}`), "servers[0].command: missing"},
		{"url on stdio", list(`{"name": "b", "transport": "stdio", "command": "x", "url": "http://x/"}`), "servers[0].url: not allowed with transport stdio"},
		{"args on http", list(`{"name": "b", "transport": "streamable-http", "url": "http://x/", "args": []}`), "servers[0].args: not allowed"},
		{"unknown field", list(`{"name": "b", "transport": "stdio", "command": "x", "cwd": "/"}`), `servers[0].cwd: unknown field`},
		{"empty list", `{"servers": []}`, "servers.yaml: servers: empty"},
		{"unknown top-level field", `{"servers": [], "version": 2}`, "servers.yaml: version: unknown field"},
		{"unknown visibility field", list(`{"name": "b", "transport": "stdio", "command": "x", "visibility": {"users": []}}`), "servers[0].visibility.users: unknown field"},
		{"missing name", list(`{"transport": "stdio", "command": "x"}`), "servers[0].name: missing"},
		{"invalid name", list(`{"name": "a b", "transport": "stdio", "command": "x"}`), `servers[0].name: "a b" is not a server name`},
		{"name with separator", list(`{"name": "a__b", "transport": "stdio", "command": "x"}`), `servers[0].name: "a__b" contains the name separator`},
		{"duplicate name", list(http, http), `servers[1].name: "a" is already the name of servers[0]`},
		{"header not a string", list(`{"name": "b", "transport": "streamable-http", "url": "http://x/", "headers": {"X": 1}}`), "servers[0].headers.X: want a string"},
		{"args not strings", list(`{"name": "b", "transport": "stdio", "command": "x", "args": [1]}`), "servers[0].args[0]: want a string"},
		{"bad variable", list(`{"name": "b", "transport": "stdio", "command": "x", "env": {"K": "${not-a-name}"}}`), `servers[0].env.K: bad variable reference "${not-a-name}"`},
		{"unclosed variable", list(`{"name": "b", "transport": "stdio", "command": "x", "args": ["${HOME"]}`), `servers[0].args[0]: bad variable reference "${HOME"`},
		{"no servers", `{}`, "servers.yaml: servers: missing"},
		{"servers not a list", `servers: gitlab`, "servers.yaml: servers: want a list"},
		{"server not a mapping", list(`"gitlab"`), "servers[0]: want a mapping"},
		{"not YAML", "servers: [\n  - {name: a", "servers.yaml: not valid YAML"},
		{"not JSON", `{"servers": [}`, "servers.yaml: not valid JSON"},
		{"number as name", "servers:\n  - {name: 12, transport: stdio, command: x}", "servers[0].name: want a string, got int 12"},
	} {
		t.Run(test.name, func(t *testing.T) {
			_, err := ParseServers("servers.yaml", []byte(test.file))
			if err == nil || !strings.Contains(err.Error(), test.want) {
				t.Errorf("got error %v, want one containing %q", err, test.want)
			}
		})
	}
}

func TestExpand(t *testing.T) {
	cfg, err := ParseServers("servers.yaml", []byte(goodYAML))
	if err != nil {
		t.Fatal(err)
	}
	env := map[string]string{"GITLAB_TOKEN": "tok-123", "V": ""}
	lookup := func(k string) (string, bool) { v, ok := env[k]; return v, ok }
	got, err := cfg.Servers[0].Expand(lookup)
	if err != nil {
		t.Fatal(err)
	}
	if got.Headers["Authorization"] != "Bearer tok-123" || cfg.Servers[0].Headers["Authorization"] != "Bearer ${GITLAB_TOKEN}" {
		t.Errorf("got %q (config now %q), want the expanded copy and the config untouched", got.Headers["Authorization"], cfg.Servers[0].Headers["Authorization"])
	}
	if e, err := cfg.Servers[1].Expand(lookup); err != nil || e.Env["K"] != "" {
		t.Errorf("got %v, %v; want a variable set to the empty string to expand to it", e, err)
	}
	delete(env, "GITLAB_TOKEN")
	_, err = cfg.Servers[0].Expand(lookup)
	if want := "servers[0].headers.Authorization: environment variable GITLAB_TOKEN is not set"; err == nil || err.Error() != want {
		t.Errorf("got %v, want %q", err, want)
	}
}

// TestServersPackage: the servers file's package is the server's, else
// the package its stdio command runs; a malformed one names its field.
func TestServersPackage(t *testing.T) {
	cfg, err := ParseServers("servers.yaml", []byte(`
servers:
  - {name: a, transport: streamable-http, url: "https://a.example/mcp", package: "@team/a-mcp@1.2.0"}
  - {name: b, transport: stdio, command: npx, args: ["-y", "@modelcontextprotocol/server-everything@2025.1.1"]}
  - {name: c, transport: stdio, command: /usr/bin/npm, args: ["exec", "--yes", "--", "airtable-mcp-server"]}
  - {name: d, transport: stdio, command: pnpm, args: ["dlx", "--package=mongodb-mcp-server@1.0.0", "mongodb-mcp"]}
  - {name: e, transport: stdio, command: node, args: ["server.js"]}
  - {name: f, transport: stdio, command: npx, args: ["-y", "${PKG}"]}
  - {name: g, transport: stdio, command: npx, args: ["-y", "other-mcp"], package: "mine-mcp@3.0.0"}
`))
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"@team/a-mcp@1.2.0", "@modelcontextprotocol/server-everything@2025.1.1", "airtable-mcp-server", "mongodb-mcp-server@1.0.0", "", "", "mine-mcp@3.0.0"}
	for i, s := range cfg.Servers {
		if s.Package != want[i] {
			t.Errorf("%s: package %q, want %q", s.Name, s.Package, want[i])
		}
	}
	for _, bad := range []string{`"Not A Package"`, `"@scope"`, `"a b@1"`, `3`} {
		_, err := ParseServers("servers.yaml", []byte(`{"servers": [{"name": "a", "transport": "stdio", "command": "npx", "package": `+bad+`}]}`))
		if err == nil || !strings.Contains(err.Error(), "servers.yaml: servers[0].package: ") {
			t.Errorf("package %s: got %v, want an error naming servers[0].package", bad, err)
		}
	}
}
