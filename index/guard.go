package index

import "fmt"

// The readers under the index (bleve's zap segments, bolt, our record
// stores) trust the bytes they map: a bundle damaged without a change in
// size (which Open checks) can make them panic. Open and the methods that
// read the bundle recover such a panic into an error, so that a damaged
// bundle fails Open or the one request (-32603 over the protocol), never
// the process. bolt alone follows offsets it reads outside the mapping, a
// fault no recover catches: Open checks root.bolt's hash before bolt maps
// it (hashedAtOpen). `mcpsearch verify` finds any damage by hash.

// recoverDamage, deferred by a method reading the bundle at dir, turns a
// panic into *err.
func recoverDamage(dir string, err *error) {
	if p := recover(); p != nil {
		*err = damaged(dir, p)
	}
}

func damaged(dir string, p any) error {
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
