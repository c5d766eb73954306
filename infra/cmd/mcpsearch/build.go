package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/index"
	"github.com/mcpsearch/mcpsearch/infra/cli"
	"github.com/mcpsearch/mcpsearch/infra/requests"
)

func runBuild(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("build", stdout, stderr)
	catalogDir := fs.String("catalog", "", "catalog directory: one JSON file of MCP list answers per server")
	out := fs.String("out", "", "bundle directory to write (replaced atomically)")
	sep := fs.String("separator", catalog.DefaultSeparator, "separator between server and item names")
	lib := libraryFlag(fs)
	ef := cli.NewEmbedFlags(fs)
	df := newBuildDraftFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := fs.Require("catalog", "out"); err != nil {
		return err
	}
	if _, err := openLibrary(*lib); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	drafter, err := df.drafter(ctx)
	if err != nil {
		return err
	}
	hosted, err := ef.Hosted(ctx)
	if err != nil {
		return err
	}
	start := time.Now()
	cat, err := catalog.LoadDir(*catalogDir, &catalog.LoadOptions{Separator: *sep})
	if err != nil {
		return err
	}
	cov, err := attachLibrary(cat, *lib)
	if err != nil {
		return err
	}
	drafts, err := df.draft(ctx, cat, *catalogDir, drafter, stdout, stderr)
	if err != nil {
		return err
	}
	m, err := index.Build(cat, *out, &index.BuildOptions{Hosted: hosted, Context: ctx, Library: cov.Library})
	if err != nil {
		return err
	}
	var size int64
	for _, f := range m.Files {
		size += f.Size
	}
	fmt.Fprintf(stdout, "built %s in %.1fs: %s, %s, %s, %s, %s; %.1f MB; index %s\n",
		*out, time.Since(start).Seconds(), count(len(cat.Servers), "server"), count(m.Counts[ext.KindTool], "tool"), count(m.Counts[ext.KindPrompt], "prompt"),
		count(m.Counts[ext.KindResource], "resource"), count(m.Counts[ext.KindResourceTemplate], "template"), float64(size)/1e6, m.IndexVersion)
	fmt.Fprintln(stdout, requests.CoverageLine(cov, drafts))
	writeMissing(stdout, drafts, df.buildCommand("build", *catalogDir, *out))
	if hosted != nil {
		fmt.Fprintf(stdout, "hosted vectors: every item embedded by %s\n", hosted.Model)
	}
	return warnErrandServers(cat, stdout, "")
}

// count is n and the noun, plural unless n is 1 ("1 prompt", "2 tools").
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// warnErrandServers writes index.ErrandServersNote of cat to w, after
// prefix, if it says anything.
func warnErrandServers(cat *catalog.Catalog, w io.Writer, prefix string) error {
	note, err := index.ErrandServersNote(cat)
	if err == nil && note != "" {
		_, err = fmt.Fprintln(w, prefix+note)
	}
	return err
}

func runVerify(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("verify", stdout, stderr)
	dir := fs.String("index", "", "bundle directory")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := fs.Require("index"); err != nil {
		return err
	}
	m, err := index.Verify(*dir)
	if err != nil {
		return err
	}
	x, err := index.Open(*dir)
	if err != nil {
		return err
	}
	defer x.Close()
	lib := "no library"
	if m.Library != "" {
		lib = "library " + m.Library
	}
	fmt.Fprintf(stdout, "ok: %s: format %d, index %s, %d files, built %s, %s\n", *dir, m.Format, m.IndexVersion, len(m.Files), m.BuiltAt.Format(time.RFC3339), lib)
	return nil
}
