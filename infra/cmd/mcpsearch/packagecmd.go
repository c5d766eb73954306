package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/ext/catalog/library"
	"github.com/mcpsearch/mcpsearch/index"
	"github.com/mcpsearch/mcpsearch/infra/artifact"
	"github.com/mcpsearch/mcpsearch/infra/cli"
	"github.com/mcpsearch/mcpsearch/infra/requests"
)

// sourceDir is the directory this binary was built from, or "" when it
// was built with -trimpath: package looks there for the module last.
var sourceDir = func() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok || !filepath.IsAbs(file) {
		return ""
	}
	return filepath.Dir(file)
}()

// runPackage builds a Lambda artifact: the code path `sam build` uses too.
// It runs from any directory: the module it builds is found from the
// working directory, the catalog or the binary's own source, in that order.
func runPackage(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("package", stdout, stderr)
	opts := artifact.Options{}
	fs.StringVar(&opts.Catalog, "catalog", "", "catalog directory")
	fs.StringVar(&opts.Out, "out", "", "artifact directory (bootstrap, index/); the zip is written beside it as DIR.zip")
	fs.StringVar(&opts.Arch, "arch", "arm64", "arm64 or amd64")
	fs.BoolVar(&opts.Zip, "zip", true, "also write DIR.zip, the file Lambda takes")
	fs.StringVar(&opts.Version, "version", "", "version stamped into the binary (default: git describe, else the VERSION file git archive fills in, else a digest of the source tree)")
	libFlag := libraryFlag(fs)
	ef := cli.NewEmbedFlags(fs)
	df := newBuildDraftFlags(fs)
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := fs.Require("catalog", "out"); err != nil {
		return err
	}
	lib, err := openLibrary(*libFlag)
	if err != nil {
		return err
	}
	opts.Library = lib
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	hosted, err := ef.Hosted(ctx)
	if err != nil {
		return err
	}
	opts.Build = &index.BuildOptions{Hosted: hosted, Context: ctx}
	module, err := artifact.FindModule(".", opts.Catalog, sourceDir)
	if err != nil {
		return err
	}
	opts.Module = module
	if err := draftBeforePackage(ctx, df, opts, stdout, stderr); err != nil {
		return err
	}
	var drafts *requests.Cached
	opts.Prepare = func(cat *catalog.Catalog) (err error) {
		drafts, err = df.draft(ctx, cat, opts.Catalog, nil, stdout, stderr)
		return err
	}
	opts.Progress = &prefixed{w: stderr, prefix: "mcpsearch package: "}
	r, err := artifact.Build(opts)
	if err != nil {
		return err
	}
	fmt.Fprintln(stdout, requests.CoverageLine(r.Coverage, drafts))
	writeMissing(stdout, drafts, df.buildCommand("package", opts.Catalog, opts.Out))
	if r.ErrandNote != "" {
		fmt.Fprintf(stderr, "mcpsearch package: warning: %s\n", r.ErrandNote)
	}
	if len(r.Stdio) > 0 {
		fmt.Fprintf(stderr, "mcpsearch package: warning: Lambda refuses to start stdio upstreams: calls to the items of %s will fail there (search still finds them); give them a streamable-http upstream to call them from Lambda\n",
			strings.Join(r.Stdio, ", "))
	}
	fmt.Fprintf(stdout, "artifact %s: bootstrap (linux/%s) + index of %d tools, %.1f MiB unzipped%s",
		opts.Out, opts.Arch, r.Manifest.Counts[ext.KindTool], artifact.MiB(r.Bytes), overLimit(r.Bytes, artifact.UnzippedLimit, "Lambda's limit"))
	if r.Zip != "" {
		fmt.Fprintf(stdout, "; %s %.1f MiB%s", r.Zip, artifact.MiB(r.ZipBytes), overLimit(r.ZipBytes, artifact.DirectUploadLimit, "the direct-upload limit: deploy through S3 (sam deploy does) or split the catalog"))
	}
	_, err = fmt.Fprintln(stdout)
	return err
}

// draftBeforePackage drafts, when --draft-model names a model, the
// requests of the items of opts.Catalog that lack them (the library of
// opts attached), before anything is compiled: the build then applies
// the drafts written.
func draftBeforePackage(ctx context.Context, df *buildDraftFlags, opts artifact.Options, stdout, stderr io.Writer) error {
	drafter, err := df.drafter(ctx)
	if err != nil || drafter == nil {
		return err
	}
	cat, err := catalog.LoadDir(opts.Catalog, nil)
	if err != nil {
		return err
	}
	library.Attach(cat, opts.Library)
	_, err = df.draft(ctx, cat, opts.Catalog, drafter, stdout, stderr)
	return err
}

// overLimit says how n bytes stand against a limit of Lambda's.
func overLimit(n, limit int64, what string) string {
	if n > limit {
		return fmt.Sprintf(" (over %s of %.0f MiB)", what, artifact.MiB(limit))
	}
	return fmt.Sprintf(" (limit %.0f MiB)", artifact.MiB(limit))
}

// prefixed starts each line written to w with prefix.
type prefixed struct {
	w       io.Writer
	prefix  string
	midLine bool
}

func (p *prefixed) Write(b []byte) (int, error) {
	for _, line := range bytes.SplitAfter(b, []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		if !p.midLine {
			if _, err := io.WriteString(p.w, p.prefix); err != nil {
				return 0, err
			}
		}
		if _, err := p.w.Write(line); err != nil {
			return 0, err
		}
		p.midLine = line[len(line)-1] != '\n'
	}
	return len(b), nil
}
