// Package bundletest is for tests only: bleve's own index of a catalog's
// documents, mapped and analysed as a bundle's segment is
// (bundle.EachDocument, bundle.Mapping), built through bleve's top-level
// package, so that a test can compare the index's BM25, explanations and
// dictionary walks with bleve's engine on the same documents. (Until
// bundle format 17 bleve opened the bundle's own scorch index; the
// segment is now written without scorch, package segmentfile.)
package bundletest

import (
	"sync"
	"testing"

	"github.com/blevesearch/bleve/v2"
	"github.com/blevesearch/bleve/v2/index/scorch"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/index/internal/bundle"
)

// built are the bleve indexes built, by catalog directory, once per test
// binary run.
var built sync.Map // catalog dir -> *once

type once struct {
	sync.Once
	idx bleve.Index
	err error
}

// Bleve returns bleve's in-memory index of the catalog at dir, built once
// per run and shared: a test only searches it.
func Bleve(tb testing.TB, dir string) bleve.Index {
	tb.Helper()
	v, _ := built.LoadOrStore(dir, &once{})
	o := v.(*once)
	o.Do(func() { o.idx, o.err = build(dir) })
	if o.err != nil {
		tb.Fatalf("bleve's index of %s: %v", dir, o.err)
	}
	return o.idx
}

// BleveOf returns bleve's in-memory index of cat, built for the caller
// (not shared: a catalog made in a test has no directory to share it by).
func BleveOf(tb testing.TB, cat *catalog.Catalog) bleve.Index {
	tb.Helper()
	idx, err := index(cat)
	if err != nil {
		tb.Fatalf("bleve's index of the catalog: %v", err)
	}
	tb.Cleanup(func() { idx.Close() })
	return idx
}

func build(dir string) (bleve.Index, error) {
	cat, err := catalog.LoadDir(dir, nil)
	if err != nil {
		return nil, err
	}
	return index(cat)
}

// index indexes the documents of cat with bleve, in memory.
func index(cat *catalog.Catalog) (bleve.Index, error) {
	m, err := bundle.Mapping()
	if err != nil {
		return nil, err
	}
	idx, err := bleve.NewUsing("", m, scorch.Name, scorch.Name, nil) // in memory: scorch without a path
	if err != nil {
		return nil, err
	}
	batch := idx.NewBatch()
	err = bundle.EachDocument(cat, func(_ *catalog.Item, id string, doc map[string]any) error {
		if err := batch.Index(id, doc); err != nil {
			return err
		}
		if batch.Size() >= 1000 {
			err := idx.Batch(batch)
			batch.Reset()
			return err
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	return idx, idx.Batch(batch)
}
