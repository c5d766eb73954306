package index

import (
	"fmt"
	"sync"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/bm25"
)

// What a caller who may not see every item learns of the others: nothing
// of their words. Its query's words are looked up, corrected and weighed
// among the items it sees (terms.go, typo.go, nomatch.go), and BM25's idf
// counts them among those items too (bm25.Scope), so that a word only
// hidden items hold is, in every answer and score, a word no item holds
// (TestHiddenVocabularyIsUnknown, TestHiddenWordScoresAsAnUnknownWord).
// What still depends on hidden items is measured in the README ("What is
// not hidden"): the fields' average lengths and the item vectors, built
// over every item.

// maxVisibleSets bounds the cached sets of visible documents.
const maxVisibleSets = 64

// visibleSets caches, for each combination of visibility sets a caller
// may see, the documents it sees; it starts afresh when full.
type visibleSets struct {
	mu   sync.Mutex
	sets map[string]bm25.Set
}

// visibleDocs returns the documents w sees; nil when it sees every one.
func (x *Index) visibleDocs(w viewer) (bm25.Set, error) {
	if w.all() {
		return nil, nil
	}
	key := fmt.Sprint(w.allowed)
	c := &x.visibleSets
	c.mu.Lock()
	set, ok := c.sets[key]
	c.mu.Unlock()
	if ok {
		return set, nil
	}
	set, err := x.readVisibleDocs(w.access)
	if err != nil {
		return nil, err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.sets == nil || len(c.sets) >= maxVisibleSets {
		c.sets = map[string]bm25.Set{}
	}
	c.sets[key] = set
	return set, nil
}

func (x *Index) readVisibleDocs(a ext.Access) (_ bm25.Set, err error) {
	defer wrapf(&err, "index %s: visible documents", x.dir)
	r, docs, err := x.readerOfDocs()
	if err != nil {
		return nil, err
	}
	defer r.Close()
	return bm25.Allowed(r, [][]bm25.Leaf{visibilityFilter(a)}, docs)
}

// scope is what BM25 counts idf over for a caller who sees what w sees
// (bm25.Scope); nil for one who sees every item.
func (x *Index) scope(kind ext.Kind, w viewer) (*bm25.Scope, error) {
	docs, err := x.visibleDocs(w)
	if err != nil || docs == nil {
		return nil, err
	}
	return &bm25.Scope{Docs: docs, Count: w.count(kind, x.manifest.Counts[kind])}, nil
}
