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
	fmt.Fprintf(stdout, "artifact %s: bootstrap (linux/%s) + index of %d tools, %.1f MB unzipped",
		opts.Out, opts.Arch, r.Manifest.Counts[ext.KindTool], float64(r.Bytes)/1e6)
	if r.Zip != "" {
		fmt.Fprintf(stdout, "; %s %.1f MB (direct upload limit 50 MB)", r.Zip, float64(r.ZipBytes)/1e6)
	}
	_, err = fmt.Fprintln(stdout)
	return err
}
