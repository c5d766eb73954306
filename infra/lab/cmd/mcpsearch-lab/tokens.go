package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"unicode/utf8"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/server"
	"github.com/mcpsearch/mcpsearch/index"
	"github.com/mcpsearch/mcpsearch/infra/cli"
	"github.com/mcpsearch/mcpsearch/infra/lab/bench"
)

// bytesPerToken estimates tokens from JSON bytes (about 4 for English and
// JSON with common tokenizers).
const bytesPerToken = 4

// tokenQueries is the fixed query mix whose search pages are measured.
var tokenQueries = []string{
	"open a merge request", "take a screenshot of the page", "list kubernetes pods",
	"send a slack message", "create a calendar event", "query a database table",
	"refund a payment", "search the web", "deploy a site", "read a file",
}

// runBenchTokens compares what a client reads to learn the tools of a
// catalog: the full tools/list against one tools/search page of 5; and
// what the directory of servers costs in the instructions. With --servers
// N, a catalog of N servers made from the first one is measured too.
func runBenchTokens(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench tokens", stdout, stderr)
	var catalogs multiFlag
	fs.Var(&catalogs, "catalog", "catalog directory (repeatable)")
	servers := fs.Int("servers", 0, "also measure a catalog of this many servers, copied from the first catalog's (0: none)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if len(catalogs) == 0 {
		return fmt.Errorf("%w: --catalog is required", cli.ErrUsage)
	}
	rows, err := measureCatalogs(catalogs, *servers)
	if err != nil {
		return err
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "catalog\ttools\ttools/list bytes\t~tokens\tsearch page (5) bytes\t~tokens\treduction\t")
	for _, row := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%.2f%%\t\n", row.name, row.tools, row.listBytes, row.listBytes/bytesPerToken,
			row.searchBytes, row.searchBytes/bytesPerToken, 100*(1-float64(row.searchBytes)/float64(row.listBytes)))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "tokens ≈ bytes/%d; the search page is the mean over %d queries\n\n", bytesPerToken, len(tokenQueries))
	return printDirectories(stdout, rows)
}

// measureCatalogs measures each catalog and, if servers > 0, a catalog of
// that many servers copied from the first.
func measureCatalogs(catalogs []string, servers int) ([]tokenRow, error) {
	var rows []tokenRow
	for _, dir := range catalogs {
		row, err := measureTokens(dir)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	if servers <= 0 {
		return rows, nil
	}
	tmp, err := os.MkdirTemp("", "mcpsearch-bench-servers-")
	if err != nil {
		return nil, err
	}
	defer os.RemoveAll(tmp)
	if err := bench.ScaleServers(catalogs[0], tmp, servers); err != nil {
		return nil, err
	}
	row, err := measureTokens(tmp)
	row.name = fmt.Sprintf("%s ×%d servers", catalogs[0], servers)
	return append(rows, row), err
}

// printDirectories prints what the directory of servers costs in each
// catalog, as a caller who sees every server.
func printDirectories(w io.Writer, rows []tokenRow) error {
	fmt.Fprintf(w, "directory of servers (instructions; search_tools' description in meta mode), budget %d characters\n", server.DefaultDirectoryChars)
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "catalog\tservers\twith a phrase\tnamed\tcharacters\t~tokens\t")
	for _, row := range rows {
		d := row.directory
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t\n", row.name, d.servers, d.described, d.named, d.chars, d.chars/bytesPerToken)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(w, "tokens ≈ characters/%d\n", bytesPerToken)
	return err
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

type tokenRow struct {
	name                   string
	tools                  int
	listBytes, searchBytes int
	directory              directoryCost
}

// directoryCost is the size and shape of a catalog's directory of servers.
type directoryCost struct {
	servers, described, named, chars int
}

// measureDirectory writes x's directory for a caller who sees everything.
func measureDirectory(x *index.Index) (directoryCost, error) {
	entries, err := x.Directory(ext.WithAccess(context.Background(), ext.Access{All: true}))
	if err != nil {
		return directoryCost{}, err
	}
	text := server.DirectoryText(entries, server.DefaultDirectoryChars)
	d := directoryCost{servers: len(entries), named: len(entries), chars: utf8.RuneCountInString(text)}
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "- ") {
			d.described++
		}
	}
	if i := strings.LastIndex(text, " and "); i >= 0 {
		var more int
		if _, err := fmt.Sscanf(text[i:], " and %d more", &more); err == nil {
			d.named -= more
		}
	}
	return d, nil
}

func measureTokens(catalogDir string) (tokenRow, error) {
	tmp, err := os.MkdirTemp("", "mcpsearch-bench-")
	if err != nil {
		return tokenRow{}, err
	}
	defer os.RemoveAll(tmp)
	m, err := index.BuildDir(catalogDir, filepath.Join(tmp, "bundle"), nil)
	if err != nil {
		return tokenRow{}, err
	}
	x, err := index.Open(filepath.Join(tmp, "bundle"))
	if err != nil {
		return tokenRow{}, err
	}
	defer x.Close()
	s := server.New(x, &server.Options{PageSize: ext.MaxPageSize, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	row := tokenRow{name: catalogDir, tools: m.Counts[ext.KindTool]}
	if row.listBytes, err = fullListBytes(s); err != nil {
		return row, err
	}
	if row.directory, err = measureDirectory(x); err != nil {
		return row, err
	}
	for _, q := range tokenQueries {
		body, err := bench.Call(s, "tools/search", map[string]any{"query": q, "limit": 5})
		if err != nil {
			return row, err
		}
		row.searchBytes += len(body)
	}
	row.searchBytes /= len(tokenQueries)
	return row, nil
}

// fullListBytes is the size of a tools/list answer holding every tool: the
// tools of all pages in one array.
func fullListBytes(s http.Handler) (int, error) {
	all, err := bench.ListTools(s)
	if err != nil {
		return 0, err
	}
	full, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "result": map[string]any{"tools": all}})
	return len(full), err
}
