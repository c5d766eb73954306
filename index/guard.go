package index

import (
	"fmt"

	"github.com/mcpsearch/mcpsearch/index/internal/checksum"
)

// bleve's zap segment reader trusts the bytes it maps: a bundle damaged
// without a change in size (which Open checks) can make it panic. Open and
// the methods that read the bundle recover such a panic into an error, so
// that a damaged bundle fails Open or the one request (-32603 over the
// protocol), never the process. The one fault no recover catches, an
// allocation sized by a damaged count of documents, Open prevents by
// checking the segment's count against the manifest's
// (bundle.OpenSegment). (Until format 17, bolt's root.bolt, whose offsets
// bolt followed outside its mapping, was hashed at open.) The bundle's own files carry checksums that their
// readers check where they read (internal/checksum); those of the written
// requests return no errors and panic with a *checksum.Damage instead,
// which is recovered here too. `mcpsearch verify` finds any damage by
// hash.

// recoverDamage, deferred by a method reading the bundle at dir, turns a
// panic into *err.
func recoverDamage(dir string, err *error) {
	if p := recover(); p != nil {
		*err = damaged(dir, p)
	}
}

// damaged is the error of p, a panic of a reader of the bundle at dir: a
// *checksum.Damage (a reader that returns no error found a damaged part,
// package requests), or a reader's fault on bytes it trusted.
func damaged(dir string, p any) error {
	if err, ok := p.(*checksum.Damage); ok {
		return fmt.Errorf("index %s: damaged bundle: %w", dir, err)
	}
	return fmt.Errorf("index %s: damaged bundle (mcpsearch verify checks every file's hash): %v", dir, p)
}

// recoverOpen, deferred by Open, turns a panic into an error and releases
// what was opened.
func recoverOpen(dir string, x **Index, err *error) {
	if p := recover(); p != nil {
		if *x != nil {
			(*x).Close()
		}
		*x, *err = nil, damaged(dir, p)
	}
}
