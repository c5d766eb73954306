package searchclient_test

import (
	"encoding/json"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	extserver "github.com/mcpsearch/mcpsearch/ext/server"
)

// localURL is the local server's endpoint, which the client snippets name.
const localURL = "http://127.0.0.1:8080/mcp"

// TestClientConfigSnippets: every JSON snippet of ext/README.md's "Clients
// people use" parses, names the server mcpsearch (at the local URL, or an
// https:// one for the Claude API's connector), keeps only meta tools by
// their real names, and every MCPSEARCH_ variable the section names is
// one functions/search reads (its configuration table, which
// TestConfigurationTable keeps equal to what it reads).
func TestClientConfigSnippets(t *testing.T) {
	section := readmeSection(t, "../README.md", "Clients people use")
	blocks := jsonBlocks(section)
	if len(blocks) < 5 { // every client but the Agents SDK, configured in code
		t.Fatalf("%d JSON snippets in \"Clients people use\", want one a client configured by JSON (5)", len(blocks))
	}
	for _, block := range blocks {
		var cfg map[string]json.RawMessage
		if err := json.Unmarshal([]byte(block), &cfg); err != nil {
			t.Errorf("snippet does not parse: %v\n%s", err, block)
			continue
		}
		checked := false
		for _, key := range []string{"mcpServers", "servers"} {
			if raw, ok := cfg[key]; ok {
				checkServerMap(t, key, raw)
				checked = true
			}
		}
		if raw, ok := cfg["mcp_servers"]; ok {
			checkConnector(t, raw, cfg["tools"])
			checked = true
		}
		if !checked {
			t.Errorf("snippet configures no server (mcpServers, servers or mcp_servers):\n%s", block)
		}
	}
	config := readmeSection(t, "../../functions/search/README.md", "Configuration")
	for _, name := range regexp.MustCompile(`MCPSEARCH_[A-Z_]+`).FindAllString(section, -1) {
		if !strings.Contains(config, "`"+name+"`") {
			t.Errorf("\"Clients people use\" names %s, which functions/search does not read", name)
		}
	}
}

// checkServerMap checks a client's map of servers: mcpsearch alone, at
// the local URL, directly or through mcp-remote.
func checkServerMap(t *testing.T, key string, raw json.RawMessage) {
	t.Helper()
	var servers map[string]struct {
		Type    string   `json:"type"`
		URL     string   `json:"url"`
		Command string   `json:"command"`
		Args    []string `json:"args"`
	}
	if err := json.Unmarshal(raw, &servers); err != nil {
		t.Errorf("%s: %v", key, err)
		return
	}
	s, ok := servers["mcpsearch"]
	if len(servers) != 1 || !ok {
		t.Errorf("%s names %d servers, want mcpsearch alone", key, len(servers))
	}
	if s.URL != localURL && !slices.Contains(s.Args, localURL) {
		t.Errorf("%s.mcpsearch: url %q, args %q; want %s", key, s.URL, s.Args, localURL)
	}
	if s.Type != "" && s.Type != "http" {
		t.Errorf("%s.mcpsearch: type %q, want http (Streamable HTTP)", key, s.Type)
	}
}

// checkConnector checks the Claude API's MCP connector: a server named
// mcpsearch at an https:// URL, toolsets that name it, and configs of
// meta tools only.
func checkConnector(t *testing.T, servers, tools json.RawMessage) {
	t.Helper()
	var list []struct{ Type, Name, URL string }
	var toolsets []struct {
		Type          string                     `json:"type"`
		MCPServerName string                     `json:"mcp_server_name"`
		Configs       map[string]json.RawMessage `json:"configs"`
	}
	if json.Unmarshal(servers, &list) != nil || json.Unmarshal(tools, &toolsets) != nil || len(list) != 1 || len(toolsets) == 0 {
		t.Fatalf("connector snippet: want one mcp_servers entry and its mcp_toolset: %s %s", servers, tools)
	}
	if s := list[0]; s.Type != "url" || s.Name != "mcpsearch" || !strings.HasPrefix(s.URL, "https://") {
		t.Errorf("mcp_servers[0] %+v: want type url, name mcpsearch, an https:// URL", s)
	}
	for _, ts := range toolsets {
		if ts.Type != "mcp_toolset" || ts.MCPServerName != "mcpsearch" {
			t.Errorf("toolset %+v: want an mcp_toolset of mcpsearch", ts)
		}
		for name := range ts.Configs {
			if name != extserver.SearchToolsName && name != extserver.CallToolName {
				t.Errorf("toolset configs %q, which is no meta tool (%s, %s)", name, extserver.SearchToolsName, extserver.CallToolName)
			}
		}
	}
}

// readmeSection is the "## title" section of the doc at path.
func readmeSection(t *testing.T, path, title string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	s := string(data)
	start := strings.Index(s, "\n## "+title+"\n")
	if start < 0 {
		t.Fatalf("%s has no section %q", path, title)
	}
	s = s[start+1:]
	if end := strings.Index(s, "\n## "); end >= 0 {
		s = s[:end]
	}
	return s
}

// jsonBlocks returns the bodies of the ```json blocks of s.
func jsonBlocks(s string) []string {
	var out []string
	for {
		start := strings.Index(s, "```json\n")
		if start < 0 {
			return out
		}
		s = s[start+len("```json\n"):]
		end := strings.Index(s, "```")
		out = append(out, s[:end])
		s = s[end+3:]
	}
}

// TestReadmeToolSearchOutput: the answers ext/README.md shows for the
// APIs' client-side tool search are lines of the examples' output, which
// go test checks.
func TestReadmeToolSearchOutput(t *testing.T) {
	section := readmeSection(t, "../README.md", "The APIs' client-side tool search")
	example, err := os.ReadFile("toolsearch_example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	start := strings.Index(section, "```text\n")
	if start < 0 {
		t.Fatal("no text block of answers in \"The APIs' client-side tool search\"")
	}
	block, _, _ := strings.Cut(section[start+len("```text\n"):], "```")
	for _, line := range strings.Split(strings.TrimSpace(block), "\n") {
		if !strings.Contains(string(example), "\t// "+line+"\n") {
			t.Errorf("ext/README.md shows %s, which no example of toolsearch_example_test.go prints", line)
		}
	}
}
