package checksum

import (
	"errors"
	"hash/crc32"
	"strings"
	"sync"
	"testing"
)

// TestOfIsCastagnoli: Of is the CRC-32C of the concatenation of its parts,
// and Update extends it, as hash/crc32 computes it.
func TestOfIsCastagnoli(t *testing.T) {
	want := crc32.Checksum([]byte("hello, world"), crc32.MakeTable(crc32.Castagnoli))
	if got := Of([]byte("hello"), []byte(", "), nil, []byte("world")); got != want {
		t.Errorf("Of = %08x, want %08x", got, want)
	}
	if got := Update(Of([]byte("hello")), []byte(", world")); got != want {
		t.Errorf("Update = %08x, want %08x", got, want)
	}
	body, crc, ok := Split(Append([]byte("abc"), 0xdeadbeef))
	if !ok || string(body) != "abc" || crc != 0xdeadbeef {
		t.Errorf("Split(Append) = %q %08x %v", body, crc, ok)
	}
	if _, _, ok := Split([]byte{1, 2, 3}); ok {
		t.Error("three bytes split into a body and a CRC")
	}
}

// TestCheckNamesTheDamage: Check passes a sound part and names the file
// and part of a damaged one.
func TestCheckNamesTheDamage(t *testing.T) {
	part := []byte("the rows of a list")
	if err := Check("f.bin", "list 3", Of(part), part); err != nil {
		t.Errorf("a sound part: %v", err)
	}
	err := Check("f.bin", "list 3", Of(part)^1, part)
	var d *Damage
	if !errors.As(err, &d) || d.File != "f.bin" || !strings.Contains(err.Error(), "f.bin: list 3 does not have the checksum") {
		t.Errorf("a damaged part: %v", err)
	}
}

// TestChecked: each of n parts is remembered once added, by any goroutine,
// and no other is.
func TestChecked(t *testing.T) {
	const n = 200
	c := NewChecked(n)
	var wg sync.WaitGroup
	for i := 0; i < n; i += 3 {
		wg.Go(func() { c.Add(i) })
	}
	wg.Wait()
	for i := range n {
		if c.Has(i) != (i%3 == 0) {
			t.Errorf("part %d: Has = %v", i, c.Has(i))
		}
	}
}
