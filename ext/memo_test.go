package ext

import (
	"errors"
	"strconv"
	"sync"
	"testing"
)

// TestMemo: a value is computed once per key, an error is not remembered,
// and a full memo starts afresh rather than growing.
func TestMemo(t *testing.T) {
	m := Memo[int]{Limit: 3}
	computed := 0
	get := func(key string) int {
		t.Helper()
		v, err := m.Get(key, func() (int, error) { computed++; return len(key), nil })
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	first, again := get("ab"), get("ab")
	if first != 2 || again != 2 || computed != 1 {
		t.Fatalf("computed %d times for one key, want once", computed)
	}
	if _, err := m.Get("bad", func() (int, error) { return 0, errors.New("no") }); err == nil {
		t.Fatal("the error was not returned")
	}
	if get("bad") != 3 || computed != 2 {
		t.Fatalf("an error was remembered (computed %d times)", computed)
	}
	get("c")
	if m.Len() != 3 {
		t.Fatalf("%d values held, want 3", m.Len())
	}
	get("d") // the memo is full: it starts afresh
	if m.Len() != 1 {
		t.Fatalf("%d values held after the limit, want 1", m.Len())
	}
}

// TestMemoConcurrent: callers of many keys at once get each key's value
// (run under the race detector by make test-race).
func TestMemoConcurrent(t *testing.T) {
	var m Memo[string]
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 500 {
				key := strconv.Itoa((i*500 + j) % 300)
				if v, _ := m.Get(key, func() (string, error) { return "v" + key, nil }); v != "v"+key {
					t.Errorf("key %s: got %s", key, v)
				}
			}
		})
	}
	wg.Wait()
}
