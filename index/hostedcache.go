package index

import (
	"container/list"
	"sync"

	"github.com/mcpsearch/mcpsearch/index/internal/hosted"
)

// queryCache keeps the vectors of the most recent query texts, at most
// size of them (a text is at most ext.MaxQueryBytes): a repeated query
// costs no call. It is safe for concurrent use.
type queryCache struct {
	mu    sync.Mutex
	size  int
	order *list.List // of *cached, most recent first
	byKey map[string]*list.Element
}

type cached struct {
	key string
	q   *hosted.Query
}

func newQueryCache(size int) *queryCache {
	return &queryCache{size: size, order: list.New(), byKey: map[string]*list.Element{}}
}

func (c *queryCache) get(key string) (*hosted.Query, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*cached).q, true
}

func (c *queryCache) put(key string, q *hosted.Query) {
	if c.size <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[key]; ok {
		e.Value.(*cached).q = q
		c.order.MoveToFront(e)
		return
	}
	c.byKey[key] = c.order.PushFront(&cached{key, q})
	for c.order.Len() > c.size {
		last := c.order.Back()
		delete(c.byKey, last.Value.(*cached).key)
		c.order.Remove(last)
	}
}

// len is how many vectors the cache holds.
func (c *queryCache) len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
