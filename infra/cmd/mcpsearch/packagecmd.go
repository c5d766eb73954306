package main

import (
	"fmt"
	"io"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/infra/artifact"
)

// runPackage builds a Lambda artifact: the code path `sam build` uses too.
func runPackage(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("package", stderr)
	opts := artifact.Options{}
	fs.StringVar(&opts.Catalog, "catalog", "", "catalog directory")
	fs.StringVar(&opts.Out, "out", "", "artifact directory (bootstrap, index/); the zip is written beside it as DIR.zip")
	fs.StringVar(&opts.Arch, "arch", "arm64", "arm64 or amd64")
	fs.BoolVar(&opts.Zip, "zip", true, "also write DIR.zip, the file Lambda takes")
	fs.StringVar(&opts.Version, "version", "", "version stamped into the binary")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if err := required(map[string]string{"catalog": opts.Catalog, "out": opts.Out}); err != nil {
		return err
	}
	r, err := artifact.Build(opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "artifact %s: bootstrap (linux/%s) + index of %d tools, %.1f MiB unzipped%s",
		opts.Out, opts.Arch, r.Manifest.Counts[ext.KindTool], artifact.MiB(r.Bytes), overLimit(r.Bytes, artifact.UnzippedLimit, "Lambda's limit"))
	if r.Zip != "" {
		fmt.Fprintf(stdout, "; %s %.1f MiB%s", r.Zip, artifact.MiB(r.ZipBytes), overLimit(r.ZipBytes, artifact.DirectUploadLimit, "the direct-upload limit: deploy through S3 (sam deploy does) or split the catalog"))
	}
	_, err = fmt.Fprintln(stdout)
	return err
}

// overLimit says how n bytes stand against a limit of Lambda's.
func overLimit(n, limit int64, what string) string {
	if n > limit {
		return fmt.Sprintf(" (over %s of %.0f MiB)", what, artifact.MiB(limit))
	}
	return fmt.Sprintf(" (limit %.0f MiB)", artifact.MiB(limit))
}
