package index

import (
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestStoreRoundTrip(t *testing.T) {
	dir := t.TempDir()
	records := [][]byte{[]byte(`{"name":"a"}`), {}, []byte(strings.Repeat("x", 70000))}
	if err := writeStore(dir, "s", records); err != nil {
		t.Fatal(err)
	}
	s, err := openStore(dir, "s")
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	for i, want := range records {
		got, err := s.get(i)
		if err != nil || string(got) != string(want) {
			t.Errorf("record %d: got %d bytes, %v; want %d bytes", i, len(got), err, len(want))
		}
	}
	if _, err := s.get(3); err == nil {
		t.Error("record past the end: no error")
	}
}

func TestStoreRefusesCorruption(t *testing.T) {
	dir := t.TempDir()
	if err := writeStore(dir, "s", [][]byte{[]byte("hello"), []byte("world")}); err != nil {
		t.Fatal(err)
	}
	// Offsets pointing past the data, then garbage instead of snappy.
	idx := filepath.Join(dir, "s.idx")
	offsets, _ := os.ReadFile(idx)
	binary.LittleEndian.PutUint64(offsets[16:], 1<<20)
	os.WriteFile(idx, offsets, 0o644)
	s, err := openStore(dir, "s")
	if err != nil {
		t.Fatal(err)
	}
	defer s.close()
	if _, err := s.get(1); err == nil {
		t.Error("record with offsets past the data: no error")
	}
	os.WriteFile(filepath.Join(dir, "s.bin"), []byte("not snappy at all"), 0o644)
	if _, err := s.get(0); err == nil {
		t.Error("garbled record: no error")
	}
	if _, err := decodeMeta([]byte{0xff, 0xff, 0xff}); err == nil {
		t.Error("garbled meta: no error")
	}
	os.WriteFile(idx, []byte{1, 2, 3}, 0o644)
	if _, err := openStore(dir, "s"); err == nil || !strings.Contains(err.Error(), "not a list of offsets") {
		t.Errorf("offsets of odd size: got %v", err)
	}
}
