package hosted

import (
	"container/list"
	"sync"
)

// QueryCache keeps the vectors of the most recent query texts, at most
// size of them (a text is at most ext.MaxQueryBytes): a repeated query
// costs no call to the hosted model. It is safe for concurrent use.
type QueryCache struct {
	mu    sync.Mutex
	size  int
	order *list.List // of *cached, most recent first
	byKey map[string]*list.Element
}

type cached struct {
	key string
	q   *Query
}

// NewQueryCache returns an empty cache of at most size vectors (none
// kept when size is 0 or less).
func NewQueryCache(size int) *QueryCache {
	return &QueryCache{size: size, order: list.New(), byKey: map[string]*list.Element{}}
}

// Get returns the vector cached under key, if any, as the most recent.
func (c *QueryCache) Get(key string) (*Query, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[key]
	if !ok {
		return nil, false
	}
	c.order.MoveToFront(e)
	return e.Value.(*cached).q, true
}

// Put caches q under key, as the most recent, dropping the least recent
// past the size.
func (c *QueryCache) Put(key string, q *Query) {
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

// Len is how many vectors the cache holds.
func (c *QueryCache) Len() int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.order.Len()
}
