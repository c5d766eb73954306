package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	librarydata "github.com/mcpsearch/mcpsearch/ext/catalog/library/data"
	"github.com/mcpsearch/mcpsearch/index"
	"github.com/mcpsearch/mcpsearch/infra/requests"
)

// teamCrawl writes, into a new catalog directory, the default catalog's
// Airtable server as a team's crawl gets it: no requests, no package (a
// crawl records serverInfo), the team's own key, a newer version,
// list_records renamed list_table_records and create_comment's
// description reworded; beside it a private server that took the key
// "airtable" and carries a tool named and described as a library tool.
func teamCrawl(t *testing.T) string {
	t.Helper()
	data, err := os.ReadFile("../../../functions/search/catalog/airtable.json")
	if err != nil {
		t.Fatal(err)
	}
	var f map[string]any
	if err := json.Unmarshal(data, &f); err != nil {
		t.Fatal(err)
	}
	f["server"] = "team-airtable"
	delete(f, "package")
	f["serverInfo"].(map[string]any)["version"] = "1.15.0"
	for _, raw := range f["tools"].([]any) {
		tool := raw.(map[string]any)
		delete(tool, "_meta")
		switch tool["name"] {
		case "list_records":
			tool["name"] = "list_table_records"
		case "create_comment":
			tool["description"] = "Adds a remark to one row"
		}
	}
	dir := t.TempDir()
	out, err := json.Marshal(f)
	if err != nil {
		t.Fatal(err)
	}
	writeFile(t, filepath.Join(dir, "team-airtable.json"), string(out))
	writeFile(t, filepath.Join(dir, "airtable.json"), `{"server":"airtable","serverInfo":{"name":"airtable-internal","version":"0.1.0"},"tools":[
{"name":"create_comment","description":"Create a comment on a record","inputSchema":{"type":"object"}},
{"name":"list_records","description":"List records from a table","inputSchema":{"type":"object"},"_meta":{"io.github.mcpsearch/requests":["our own request for our records"]}}]}`)
	return dir
}

// TestBuildAttachesLibrary: the crawl of a public server the library
// knows gets the library's requests for its unchanged, reworded and
// renamed tools, none borrowed by the private server with the public
// server's key; the team's own requests stay; the build says so and its
// manifest names the library; --library=off builds without.
func TestBuildAttachesLibrary(t *testing.T) {
	dir := teamCrawl(t)
	lib, err := librarydata.Library()
	if err != nil {
		t.Fatal(err)
	}
	bundle := filepath.Join(t.TempDir(), "b")
	code, out, errOut := runCLI("build", "--catalog", dir, "--out", bundle)
	if code != 0 {
		t.Fatalf("exit %d: %s%s", code, out, errOut)
	}
	want := "requests (library " + lib.Version() + "): 1 items their own, 16 the library's (1 matched by description), 1 none\n"
	if !strings.Contains(out, want) {
		t.Errorf("build printed %q, want %q", out, want)
	}
	m, err := index.Verify(bundle)
	if err != nil || m.Library != lib.Version() {
		t.Errorf("manifest library %q (%v), want %q", m.Library, err, lib.Version())
	}

	// a request written for list_records finds the renamed tool first
	var req string
	for _, f := range lib.Files() {
		for _, it := range f.Items {
			if f.Identity == "airtable-mcp-server" && it.Name == "list_records" {
				req = it.Requests[len(it.Requests)-1]
			}
		}
	}
	code, out, _ = runCLI("search", "--index", bundle, "--limit", "1", "--", req)
	if code != 0 || !strings.Contains(out, "team-airtable__list_table_records") {
		t.Errorf("search %q: exit %d, %s; want the renamed tool first", req, code, out)
	}

	code, out, _ = runCLI("requests", "coverage", "--catalog", dir, "--items")
	if code != 0 {
		t.Fatalf("coverage: exit %d", code)
	}
	for _, line := range []string{
		"team-airtable\tteam-airtable__list_table_records\tlibrary\n",
		"team-airtable\tteam-airtable__create_comment\tlibrary\n",
		"team-airtable\tteam-airtable__get_record\tlibrary\n",
		"airtable\tairtable__create_comment\tnone\n",
		"airtable\tairtable__list_records\town\n",
	} {
		if !strings.Contains(out, line) {
			t.Errorf("coverage --items lacks %q:\n%s", line, out)
		}
	}

	off := filepath.Join(t.TempDir(), "off")
	code, out, errOut = runCLI("build", "--catalog", dir, "--out", off, "--library=off")
	if code != 0 || !strings.Contains(out, "requests (library off): 1 items their own, 0 the library's (0 matched by description), 17 none; 1 server without: team-airtable\n") {
		t.Errorf("--library=off: exit %d, %s%s", code, out, errOut)
	}
	if code, out, _ := runCLI("verify", "--index", bundle); code != 0 || !strings.HasSuffix(out, ", library "+lib.Version()+"\n") {
		t.Errorf("verify: exit %d, %q; want the library named", code, out)
	}
	mOff := mustVerify(t, off)
	if mOff.Library != "" {
		t.Errorf("--library=off: manifest library %q, want none", mOff.Library)
	}
	if code, out, _ := runCLI("search", "--index", off, "--limit", "1", "--", req); code != 0 || strings.Contains(out, "team-airtable__list_table_records") {
		t.Errorf("--library=off: search %q: exit %d, %s; want another tool first (the requests make the difference)", req, code, out)
	}
	if m.IndexVersion == mOff.IndexVersion {
		t.Error("the library's requests did not change the index version")
	}
}

func mustVerify(t *testing.T, dir string) *index.Manifest {
	t.Helper()
	m, err := index.Verify(dir)
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// TestLibraryFlagUsage: a --library value other than on or off is a usage
// error naming the flag, in every command that takes it.
func TestLibraryFlagUsage(t *testing.T) {
	for _, args := range [][]string{
		{"build", "--catalog", "x", "--out", "y", "--library=no"},
		{"package", "--catalog", "x", "--out", "y", "--library=no"},
		{"crawl", "--servers", "x", "--out", "y", "--library=no"},
		{"requests", "coverage", "--catalog", "x", "--library=no"},
	} {
		code, _, errOut := runCLI(args...)
		if code != 2 || !strings.Contains(errOut, `--library: "no": want on or off`) {
			t.Errorf("%q: exit %d, %s; want 2 naming --library", args, code, errOut)
		}
	}
}

// TestRequestsLibraryList: one line a server, identity, items and
// requests tab-separated, as the data files hold them.
func TestRequestsLibraryList(t *testing.T) {
	code, out, errOut := runCLI("requests", "library")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errOut)
	}
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if len(lines) != 342 {
		t.Errorf("%d lines, want the 342 servers with written requests of the default catalog, the corpus and the public servers crawled for the library", len(lines))
	}
	found := false
	for _, l := range lines {
		fields := strings.Split(l, "\t")
		if len(fields) != 3 {
			t.Fatalf("line %q: want identity, items, requests", l)
		}
		if fields[0] == "airtable-mcp-server" {
			found = fields[1] == "16"
		}
	}
	if !found {
		t.Errorf("no line airtable-mcp-server with its 16 items in:\n%s", out)
	}
}

// TestLibraryUpToDate: the embedded library is what `mcpsearch requests
// library --write` makes of the default catalog and the corpus today.
func TestLibraryUpToDate(t *testing.T) {
	files, err := requests.LibraryFiles("../../..", requests.LibrarySources)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if _, err := requests.WriteLibrary(dir, files); err != nil {
		t.Fatal(err)
	}
	gen, _ := filepath.Glob(filepath.Join(dir, "*.json"))
	have, _ := filepath.Glob(filepath.Join("../../..", requests.LibraryDir, "*.json"))
	if len(gen) != len(have) {
		t.Fatalf("%d library files generated, %d in %s: run go run ./infra/cmd/mcpsearch requests library --write", len(gen), len(have), requests.LibraryDir)
	}
	for _, g := range gen {
		a, _ := os.ReadFile(g)
		b, err := os.ReadFile(filepath.Join("../../..", requests.LibraryDir, filepath.Base(g)))
		if err != nil || string(a) != string(b) {
			t.Errorf("%s is stale (%v): run go run ./infra/cmd/mcpsearch requests library --write", filepath.Base(g), err)
		}
	}
	for _, f := range files {
		if f.Source.License == "" {
			t.Errorf("%s: no licence recorded for %s", f.Identity, f.Source.File)
		}
	}
}
