// Package artifact builds the Lambda artifact of a search function: the
// static bootstrap binary and the index bundle of a catalog, in one
// directory, and optionally the exact zip Lambda takes. `sam build` (through
// the Makefile) and `mcpsearch package` both build it here.
package artifact

import (
	"archive/zip"
	"cmp"
	"compress/flate"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	pathpkg "path"
	"path/filepath"
	"strings"
	"time"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/ext/catalog/library"
	"github.com/mcpsearch/mcpsearch/index"
)

// Lambda's limits on a .zip deployment package, in the bytes its API
// enforces (its "MB" are MiB): 50 MiB zipped for a direct upload (the API
// refuses a request of more than 69,905,067 bytes, the base64 of 52,428,800)
// and 250 MiB unzipped ("Unzipped size must be smaller than 262144000
// bytes"), which also bounds an upload through S3, as `sam deploy` does.
const (
	DirectUploadLimit = 50 << 20
	UnzippedLimit     = 250 << 20
)

// MiB is n bytes in mebibytes, the unit of Lambda's limits.
func MiB(n int64) float64 { return float64(n) / (1 << 20) }

// Options say what to build.
type Options struct {
	Catalog string // catalog directory
	Out     string // artifact directory: bootstrap and index/
	Arch    string // arm64 (default) or amd64
	Zip     bool   // also write Out + ".zip"
	// Version is stamped into the binary; empty means SourceVersion's
	// name of Module (git describe, the VERSION file, or a digest of the
	// tree), told to Progress with where it came from.
	Version string
	Module  string // root of the mcpsearch module (see FindModule); empty means "."
	// Progress is told each step as it starts ("compiling bootstrap for
	// linux/arm64... ") and its time when it ends ("41.2s"): compiling
	// alone takes a minute on a cold build cache. If nil, nothing is told.
	Progress io.Writer
	// Build configures the index build (a hosted embeddings model, its
	// context). If nil, the defaults.
	Build *index.BuildOptions
	// Library, if set, gives the catalog's items without requests the
	// requests it holds for them before the build (library.Attach); the
	// bundle's manifest records its version. The binary carries none of
	// it: only the requests the index keeps of the items it covers.
	Library *library.Library
	// Prepare, if set, is called with the catalog once the library is
	// attached, before the index is built: `mcpsearch package` gives the
	// items without requests their drafts there (requests.DraftCached).
	// Its error stops the build.
	Prepare func(cat *catalog.Catalog) error
}

// Result describes what was built.
type Result struct {
	Manifest  *index.Manifest
	Bytes     int64  // artifact directory, unzipped
	Zip       string // path of the zip, if written
	ZipBytes  int64
	Bootstrap string
	Version   string // stamped into bootstrap
	// Stdio names the servers whose upstream is a stdio process, which
	// the function refuses to start in Lambda: calls to their items fail
	// there, though search finds them.
	Stdio []string
	// ErrandNote names the servers whose written requests the no-match
	// test's errand model reads as everyday errands, and what to set
	// (index.ErrandServersNote); empty when none is such.
	ErrandNote string
	// Coverage is where the items' requests came from (library.Attach).
	Coverage *library.Coverage
}

// Build compiles bootstrap for linux/Arch (static, lambda.norpc, without
// the bundled catalog, stripped), builds the bundle of Catalog into
// Out/index, makes the artifact's files (Files) world-readable and, with
// Zip, zips exactly them. Module must be the module's root: Build checks
// it before it writes anything, and when it fails it removes the
// directories it made.
func Build(opts Options) (_ *Result, err error) {
	arch := cmp.Or(opts.Arch, "arm64")
	if arch != "arm64" && arch != "amd64" {
		return nil, fmt.Errorf("arch %q: want arm64 or amd64", arch)
	}
	if err := checkModule(opts.Module); err != nil {
		return nil, err
	}
	made, err := mkdirAll(opts.Out)
	if made != "" {
		defer func() {
			if err != nil {
				os.RemoveAll(made)
			}
		}()
	}
	if err != nil {
		return nil, err
	}
	r := &Result{Bootstrap: filepath.Join(opts.Out, "bootstrap")}
	if r.Version, err = resolveVersion(opts); err != nil {
		return nil, err
	}
	err = step(opts.Progress, "compiling bootstrap for linux/"+arch, func() error {
		return Compile(opts.Module, arch, r.Version, r.Bootstrap)
	})
	if err != nil {
		return nil, err
	}
	err = step(opts.Progress, "building the index of "+opts.Catalog, func() error {
		cat, err := catalog.LoadDir(opts.Catalog, nil)
		if err != nil {
			return err
		}
		r.Coverage = library.Attach(cat, opts.Library)
		if opts.Prepare != nil {
			if err := opts.Prepare(cat); err != nil {
				return err
			}
		}
		build := index.BuildOptions{}
		if opts.Build != nil {
			build = *opts.Build
		}
		build.Library = r.Coverage.Library
		if r.Manifest, err = index.Build(cat, filepath.Join(opts.Out, "index"), &build); err != nil {
			return err
		}
		r.ErrandNote, err = index.ErrandServersNote(cat)
		return err
	})
	if err != nil {
		return nil, err
	}
	if r.Stdio, err = stdioServers(filepath.Join(opts.Out, "index")); err != nil {
		return nil, err
	}
	err = step(opts.Progress, "writing "+NoticesFile, func() error {
		return WriteNotices(opts.Module, arch, opts.Catalog, filepath.Join(opts.Out, NoticesFile))
	})
	if err != nil {
		return nil, err
	}
	files, err := Files(opts.Out)
	if err != nil {
		return nil, err
	}
	if r.Bytes, err = readable(opts.Out, files); err != nil {
		return nil, err
	}
	if opts.Zip {
		r.Zip = strings.TrimSuffix(filepath.Clean(opts.Out), string(filepath.Separator)) + ".zip"
		err = step(opts.Progress, "zipping "+r.Zip, func() (err error) {
			r.ZipBytes, err = Zip(opts.Out, r.Zip)
			return err
		})
		if err != nil {
			return nil, err
		}
	}
	return r, nil
}

// resolveVersion returns opts.Version, or else SourceVersion's name of
// the module, and tells opts.Progress which and where it came from.
func resolveVersion(opts Options) (string, error) {
	version, origin := opts.Version, "--version"
	if version == "" {
		var err error
		if version, origin, err = SourceVersion(cmp.Or(opts.Module, ".")); err != nil {
			return "", err
		}
	}
	if opts.Progress != nil {
		fmt.Fprintf(opts.Progress, "version %s (from %s)\n", version, origin)
	}
	return version, nil
}

// step tells w what starts, does it, and tells how long it took, or that
// it failed (the caller tells why). A nil w is told nothing.
func step(w io.Writer, what string, do func() error) error {
	if w == nil {
		return do()
	}
	fmt.Fprintf(w, "%s... ", what)
	start := time.Now()
	if err := do(); err != nil {
		fmt.Fprintln(w, "failed")
		return err
	}
	fmt.Fprintf(w, "%.1fs\n", time.Since(start).Seconds())
	return nil
}

// buildTags are the build tags of bootstrap: the Lambda runtime without
// its RPC mode, and no bundled catalog (the artifact has its index).
const buildTags = "lambda.norpc,nocatalog"

// Compile builds the search function's bootstrap for linux/arch from the
// module at dir into out.
func Compile(dir, arch, version, out string) error {
	if version == "" {
		version = "dev"
	}
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	cmd := exec.Command("go", "build", "-tags", buildTags, "-trimpath",
		"-ldflags", "-s -w -X main.version="+version, "-o", abs, "./functions/search")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0", "GOOS=linux", "GOARCH="+arch)
	if output, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build: %w\n%s", err, output)
	}
	return nil
}

// Files lists what the artifact at dir holds, as slash paths: bootstrap,
// the notices (NoticesFile), and the bundle in index/ as its manifest lists it (manifest.json and
// every file, checked by hash). Nothing else under dir is packaged: not
// the folder of a build that was killed, not a stray file.
func Files(dir string) ([]string, error) {
	m, err := index.Verify(filepath.Join(dir, "index"))
	if err != nil {
		return nil, err
	}
	files := []string{"bootstrap", NoticesFile, "index/" + index.ManifestFile}
	for _, f := range m.Files {
		files = append(files, "index/"+f.Path)
	}
	return files, nil
}

// readable gives the files (slash paths under dir) 0644, bootstrap 0755,
// and their directories 0755, and returns the files' total size.
func readable(dir string, files []string) (int64, error) {
	var total int64
	dirs := map[string]bool{}
	for _, f := range files {
		path := filepath.Join(dir, filepath.FromSlash(f))
		info, err := os.Stat(path)
		if err != nil {
			return 0, err
		}
		total += info.Size()
		mode := fs.FileMode(0o644)
		if f == "bootstrap" {
			mode = 0o755
		}
		if err := os.Chmod(path, mode); err != nil {
			return 0, err
		}
		for d := pathpkg.Dir(f); !dirs[d]; d = pathpkg.Dir(d) {
			dirs[d] = true
			if err := os.Chmod(filepath.Join(dir, filepath.FromSlash(d)), 0o755); err != nil {
				return 0, err
			}
		}
	}
	return total, nil
}

// Zip writes the artifact at dir (its Files) into the zip at path, with
// their modes, and returns its size.
func Zip(dir, path string) (int64, error) {
	files, err := Files(dir)
	if err != nil {
		return 0, err
	}
	entries := make([]zipEntry, len(files))
	for i, f := range files {
		entries[i] = zipEntry{src: filepath.Join(dir, filepath.FromSlash(f)), name: f}
	}
	return writeZip(path, entries)
}

// Tree is a directory to zip under a prefix (a slash path, or "" for the
// zip's root).
type Tree struct{ Dir, Prefix string }

// ZipTree writes the files of every tree into the zip at path, with their
// modes, and returns its size. Bench uses it to zip a bootstrap and a
// bundle kept apart as the artifact they would make.
func ZipTree(path string, trees ...Tree) (int64, error) {
	var entries []zipEntry
	for _, t := range trees {
		err := filepath.WalkDir(t.Dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() {
				return err
			}
			rel, _ := filepath.Rel(t.Dir, p)
			entries = append(entries, zipEntry{src: p, name: pathpkg.Join(t.Prefix, filepath.ToSlash(rel))})
			return nil
		})
		if err != nil {
			return 0, err
		}
	}
	return writeZip(path, entries)
}

// zipEntry is a file to zip (src) and its name in the zip.
type zipEntry struct{ src, name string }

// writeZip writes the entries into the zip at path and returns its size.
func writeZip(path string, entries []zipEntry) (int64, error) {
	f, err := os.Create(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	zw := zip.NewWriter(f)
	// The deflate level is the zip's only knob: the best level costs a few
	// seconds at 100k tools and keeps the artifact further under Lambda's
	// 50 MiB direct-upload limit.
	zw.RegisterCompressor(zip.Deflate, func(w io.Writer) (io.WriteCloser, error) {
		return flate.NewWriter(w, flate.BestCompression)
	})
	for _, e := range entries {
		if err := addFile(zw, e); err != nil {
			return 0, err
		}
	}
	if err := zw.Close(); err != nil {
		return 0, err
	}
	info, err := f.Stat()
	if err != nil {
		return 0, err
	}
	return info.Size(), f.Close()
}

func addFile(zw *zip.Writer, e zipEntry) error {
	info, err := os.Stat(e.src)
	if err != nil {
		return err
	}
	hdr, err := zip.FileInfoHeader(info)
	if err != nil {
		return err
	}
	hdr.Name = e.name
	hdr.Method = zip.Deflate
	w, err := zw.CreateHeader(hdr)
	if err != nil {
		return err
	}
	in, err := os.Open(e.src)
	if err != nil {
		return err
	}
	defer in.Close()
	_, err = io.Copy(w, in)
	return err
}
