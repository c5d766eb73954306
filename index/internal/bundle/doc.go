// Package bundle is the bundle format: what [Build] writes into a
// directory (the manifest, bleve's segment, the record stores, the
// vectors, the written requests, the hosted vectors, the doc order and the
// list of servers) in a build folder of its own that it renames into
// place, and what a reader checks before it trusts a file ([ReadManifest],
// [Manifest.CheckFiles], [Manifest.ReadChecked], [OpenSegment]). Package
// index opens and serves bundles through it; the documents' fields are
// package schema's, and every file the build writes is named in package
// index's doc.
//
// The files of this package that decide a bundle's bytes (build.go,
// document.go, mapping.go, docorder.go) are among the build inputs that
// package versions hashes into the build id.
package bundle
