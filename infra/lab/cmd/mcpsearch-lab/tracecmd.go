package main

import (
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/mcpsearch/mcpsearch/infra/lab/calltrace"
)

// traceRequest and traceWarmup are the default request traced and the one
// served before it: a filtered search of the function's test catalog.
const (
	traceRequest = `{"jsonrpc":"2.0","id":2,"method":"tools/search","params":{"query":"take a screenshot of the page","filter":{"servers":["demo"]}}}`
	traceWarmup  = `{"jsonrpc":"2.0","id":1,"method":"tools/search","params":{"query":"read a file"}}`
)

// runTrace traces one request from the function's handler to the page in
// an instrumented copy of the module (package calltrace) and prints the
// packages and files it entered and how often it went back to one it had
// left.
func runTrace(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("trace", stdout, stderr)
	root := fs.String("root", ".", "the module's root `DIR` (it is copied, never changed)")
	request := fs.String("request", traceRequest, "the JSON-RPC `BODY` traced")
	warmup := fs.String("warmup", traceWarmup, "the JSON-RPC `BODY` served first, untraced")
	asJSON := fs.Bool("json", false, "print the summary as JSON")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if _, err := os.Stat(filepath.Join(*root, "go.mod")); err != nil {
		return fmt.Errorf("--root %s: no go.mod there: %w", *root, err)
	}
	work, err := os.MkdirTemp("", "calltrace-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(work)
	calls, err := calltrace.Run(calltrace.Options{Root: *root, Work: work, Request: *request, Warmup: *warmup})
	if err != nil {
		return err
	}
	s := calltrace.Summarize(calls, work)
	if *asJSON {
		enc := json.NewEncoder(stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(s)
	}
	printTrace(stdout, s)
	return nil
}

// printTrace prints s for a reader.
func printTrace(w io.Writer, s calltrace.Summary) {
	fmt.Fprintf(w, "%d functions entered\n", s.Entries)
	fmt.Fprintf(w, "packages entered, in order (%d): %s\n", len(s.Packages), strings.Join(s.Packages, ", "))
	fmt.Fprintf(w, "package visits: %d, returns to a package left: %d\n", len(s.PackageVisits), s.PackageReturns)
	fmt.Fprintf(w, "files entered: %d, file visits: %d, returns to a file left: %d\n", len(s.Files), s.FileVisits, s.FileReturns)
	fmt.Fprintf(w, "callbacks into a package waiting on another: %d (by file: %d)\n", s.PackageCallbacks, s.FileCallbacks)
	for _, pair := range slices.Sorted(maps.Keys(s.Callbacks)) {
		fmt.Fprintf(w, "  %s: %d\n", pair, s.Callbacks[pair])
	}
	for _, fn := range slices.Sorted(maps.Keys(s.CallbackFuncs)) {
		fmt.Fprintf(w, "    %s: %d\n", fn, s.CallbackFuncs[fn])
	}
	fmt.Fprintf(w, "files, in order: %s\n", strings.Join(s.Files, ", "))
	fmt.Fprintf(w, "package visits, in order: %s\n", strings.Join(s.PackageVisits, " → "))
}
