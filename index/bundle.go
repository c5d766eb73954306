package index

import (
	"fmt"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/index/internal/bundle"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// The bundle format — what Build writes and Open checks — is package
// internal/bundle's; these are its names that callers use.

// FormatVersion is the bundle format this package writes and reads
// (bundle.FormatVersion, with its changelog).
const FormatVersion = bundle.FormatVersion

// BleveVersion is the bleve release that writes and reads bundles; go.mod
// pins it (a test checks), and manifests record it.
const BleveVersion = bundle.BleveVersion

// ErrOtherBuild is a bundle built with other build-time tables, constants
// or writers than this binary's (BuildID): Open and Verify refuse it.
var ErrOtherBuild = bundle.ErrOtherBuild

// BuildID identifies what a bundle's bytes depend on, of this binary
// (package internal/versions). Bundles record it; Open refuses another.
const BuildID = bundle.BuildID

// QueryID identifies the query-time tables, constants and models of this
// binary (package internal/versions). It refuses no bundle; the server
// reports it ("rules" in its capabilities) and logs it.
const QueryID = bundle.QueryID

// ManifestFile is the name of the manifest in a bundle directory.
const ManifestFile = bundle.ManifestFile

// Manifest describes a bundle (bundle.Manifest).
type Manifest = bundle.Manifest

// FileInfo is a file of a bundle as its manifest lists it.
type FileInfo = bundle.FileInfo

// BuildOptions configure Build. A nil *BuildOptions means the defaults.
type BuildOptions = bundle.BuildOptions

// VersionOf is the index version of a bundle of cat built by this binary
// (bundle.VersionOf): new build-time knowledge gives every catalog a new
// version, as a new format does.
func VersionOf(cat *catalog.Catalog) string { return bundle.VersionOf(cat) }

// Build writes the bundle of cat to dir, atomically (bundle.Build): a
// failed or interrupted build never leaves a bundle that opens, and a
// previous bundle at dir stays until the new one replaces it. dir must be
// absent, empty, or a bundle.
func Build(cat *catalog.Catalog, dir string, opts *BuildOptions) (*Manifest, error) {
	return bundle.Build(cat, dir, opts)
}

// BuildDir loads the catalog at catalogDir and builds its bundle at dir.
func BuildDir(catalogDir, dir string, opts *BuildOptions) (*Manifest, error) {
	return bundle.BuildDir(catalogDir, dir, opts)
}

// SplitName splits an identifier into its lower-case words as the index
// analyses names: snake_case, kebab-case, camelCase, acronyms (getURLs →
// get, urls). The WordNet distiller reads the catalogs' vocabulary with it.
func SplitName(s string) []string { return text.SplitName(s) }

// Terms returns the distinct terms the index's text analyzer makes of s
// (lower-cased, stemmed: "Invoices" → invoic), in order. The distillers of
// query-time tables write terms with it, so that the search reads a table
// without analysing it.
func Terms(s string) []string { return text.Analyze(s) }

// wrapf prefixes a non-nil *errp with the formatted context.
func wrapf(errp *error, format string, args ...any) {
	if *errp != nil {
		*errp = fmt.Errorf("%s: %w", fmt.Sprintf(format, args...), *errp)
	}
}
