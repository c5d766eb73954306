package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index"
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
// catalog: the full tools/list against one tools/search page of 5.
func runBenchTokens(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("bench tokens", stdout, stderr)
	var catalogs multiFlag
	fs.Var(&catalogs, "catalog", "catalog directory (repeatable)")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if len(catalogs) == 0 {
		return fmt.Errorf("%w: --catalog is required", errUsage)
	}
	tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "catalog\ttools\ttools/list bytes\t~tokens\tsearch page (5) bytes\t~tokens\treduction\t")
	for _, dir := range catalogs {
		row, err := measureTokens(dir)
		if err != nil {
			return err
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%d\t%.2f%%\t\n", dir, row.tools, row.listBytes, row.listBytes/bytesPerToken,
			row.searchBytes, row.searchBytes/bytesPerToken, 100*(1-float64(row.searchBytes)/float64(row.listBytes)))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	_, err := fmt.Fprintf(stdout, "tokens ≈ bytes/%d; the search page is the mean over %d queries\n", bytesPerToken, len(tokenQueries))
	return err
}

type multiFlag []string

func (m *multiFlag) String() string     { return strings.Join(*m, ",") }
func (m *multiFlag) Set(v string) error { *m = append(*m, v); return nil }

type tokenRow struct {
	tools                  int
	listBytes, searchBytes int
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
	s := ext.NewServer(x, &ext.Options{PageSize: ext.MaxPageSize, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	row := tokenRow{tools: m.Counts[ext.KindTool]}
	if row.listBytes, err = fullListBytes(s); err != nil {
		return row, err
	}
	for _, q := range tokenQueries {
		body, err := rpc(s, "tools/search", map[string]any{"query": q, "limit": 5})
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
	var all []json.RawMessage
	params := map[string]any{}
	for {
		body, err := rpc(s, "tools/list", params)
		if err != nil {
			return 0, err
		}
		var r struct {
			Result struct {
				Tools      []json.RawMessage `json:"tools"`
				NextCursor string            `json:"nextCursor"`
			} `json:"result"`
		}
		if err := json.Unmarshal(body, &r); err != nil {
			return 0, err
		}
		all = append(all, r.Result.Tools...)
		if r.Result.NextCursor == "" {
			break
		}
		params = map[string]any{"cursor": r.Result.NextCursor}
	}
	full, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "result": map[string]any{"tools": all}})
	return len(full), err
}

// rpc sends one request to s in process and returns the response body.
func rpc(s http.Handler, method string, params map[string]any) ([]byte, error) {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": 1, "method": method, "params": params})
	req := httptest.NewRequest(http.MethodPost, "/mcp", bytes.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	var r struct{ Error *ext.Error }
	if err := json.Unmarshal(rec.Body.Bytes(), &r); err != nil || r.Error != nil || rec.Code != http.StatusOK {
		return nil, fmt.Errorf("%s: HTTP %d: %s", method, rec.Code, rec.Body.Bytes())
	}
	return rec.Body.Bytes(), nil
}
