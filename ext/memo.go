package ext

import "sync"

// Memo remembers a value per key (say, per access key: what one caller
// sees), computed on first use, for callers that come again. It holds at
// most Limit values (DefaultMemoLimit when zero) and starts afresh when
// full, so that callers of ever new keys cost memory only up to the limit.
// The zero Memo is ready; it is safe for concurrent use. Two callers of
// one new key may both compute it; the value is the same.
type Memo[V any] struct {
	Limit int

	mu     sync.Mutex
	values map[string]V
}

// DefaultMemoLimit is the values a Memo of zero Limit holds.
const DefaultMemoLimit = 256

// Get returns the value of key, computing it with compute on first use (or
// again after the memo started afresh). An error is returned and not
// remembered.
func (m *Memo[V]) Get(key string, compute func() (V, error)) (V, error) {
	m.mu.Lock()
	v, ok := m.values[key]
	m.mu.Unlock()
	if ok {
		return v, nil
	}
	v, err := compute()
	if err != nil {
		return v, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	limit := m.Limit
	if limit <= 0 {
		limit = DefaultMemoLimit
	}
	if m.values == nil || len(m.values) >= limit {
		m.values = map[string]V{}
	}
	m.values[key] = v
	return v, nil
}

// Len is the number of values the memo holds.
func (m *Memo[V]) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.values)
}
