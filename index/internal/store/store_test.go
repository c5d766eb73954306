package store

import (
	"encoding/binary"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// storeRecords are records of every awkward size: empty, small, larger than
// a zstd block, and enough of them to fill blocks and leave a partial one.
func storeRecords() [][]byte {
	records := [][]byte{[]byte(`{"name":"a"}`), {}, []byte(strings.Repeat("x", 70000))}
	for i := range 37 {
		records = append(records, []byte(fmt.Sprintf(`{"name":"tool_%d","description":"does thing %d"}`, i, i)))
	}
	return records
}

func TestStoreRoundTrip(t *testing.T) {
	for _, test := range []struct {
		name            string
		codec, perBlock int
	}{
		{"plain, one a block", codecNone, 1},
		{"zstd, one a block", codecZstd, 1},
		{"zstd, 16 a block", codecZstd, 16},
		{"plain, 7 a block", codecNone, 7},
		{"zstd, 128 a block (past the last record)", codecZstd, 128},
	} {
		t.Run(test.name, func(t *testing.T) {
			dir := t.TempDir()
			records := storeRecords()
			if err := writeStore(dir, "s", records, test.codec, test.perBlock); err != nil {
				t.Fatal(err)
			}
			s, err := Open(dir, "s")
			if err != nil {
				t.Fatal(err)
			}
			defer s.Close()
			if s.Count() != len(records) {
				t.Fatalf("got %d records, want %d", s.Count(), len(records))
			}
			for i, want := range records {
				got, err := s.Get(i)
				if err != nil || string(got) != string(want) {
					t.Errorf("record %d: got %d bytes, %v; want %d bytes", i, len(got), err, len(want))
				}
			}
			// Out of order, repeated, across blocks.
			ns := []int{len(records) - 1, 0, 17, 16, 0, 3}
			got, err := s.GetAll(ns)
			if err != nil {
				t.Fatal(err)
			}
			for i, n := range ns {
				if string(got[i]) != string(records[n]) {
					t.Errorf("getAll[%d] (record %d): got %q, want %q", i, n, got[i], records[n])
				}
			}
			if _, err := s.Get(len(records)); err == nil {
				t.Error("record past the end: no error")
			}
		})
	}
}

func TestStoreCompressesObjectsInBlocks(t *testing.T) {
	dir := t.TempDir()
	var records [][]byte
	for i := range 64 {
		records = append(records, []byte(fmt.Sprintf(`{"name":"gitlab__tool_%d","description":"List the merge requests of a project","inputSchema":{"type":"object","properties":{"project_id":{"type":"string","description":"The ID or URL-encoded path of the project"}}}}`, i)))
	}
	size := func(codec, perBlock int) int64 {
		sub := filepath.Join(dir, fmt.Sprint(codec, perBlock))
		os.Mkdir(sub, 0o755)
		if err := writeStore(sub, "s", records, codec, perBlock); err != nil {
			t.Fatal(err)
		}
		st, err := os.Stat(filepath.Join(sub, "s.bin"))
		if err != nil {
			t.Fatal(err)
		}
		return st.Size()
	}
	plain, single, blocks := size(codecNone, 1), size(codecZstd, 1), size(codecZstd, objectsPerBlock(0))
	if !(blocks < single && single < plain) || blocks*4 > plain {
		t.Errorf("sizes: plain %d, zstd one a block %d, zstd %d a block %d; want blocks far smaller", plain, single, objectsPerBlock(0), blocks)
	}
}

// TestObjectsPerBlock: blocks double with each doubling of the objects'
// bytes past smallObjectBytes, from 16 up to 128.
func TestObjectsPerBlock(t *testing.T) {
	for _, test := range []struct {
		bytes int64
		want  int
	}{
		{0, 16}, {10 << 20, 16}, {smallObjectBytes, 16}, {smallObjectBytes + 1, 32},
		{2 * smallObjectBytes, 32}, {2*smallObjectBytes + 1, 64}, {4*smallObjectBytes + 1, 128},
		{205 << 20, 128}, {1 << 40, 128},
	} {
		if got := objectsPerBlock(test.bytes); got != test.want {
			t.Errorf("objectsPerBlock(%d) = %d, want %d", test.bytes, got, test.want)
		}
	}
}

func TestStoreRefusesCorruption(t *testing.T) {
	dir := t.TempDir()
	if err := writeStore(dir, "s", [][]byte{[]byte("hello"), []byte("world"), []byte("again")}, codecZstd, 2); err != nil {
		t.Fatal(err)
	}
	idx := filepath.Join(dir, "s.idx")
	good, _ := os.ReadFile(idx)
	open := func(t *testing.T) *Store {
		t.Helper()
		s, err := Open(dir, "s")
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { s.Close() })
		return s
	}

	// Offsets pointing past the data.
	offsets := append([]byte(nil), good...)
	binary.LittleEndian.PutUint64(offsets[storeHeaderSize+8:], 1<<20)
	os.WriteFile(idx, offsets, 0o644)
	if _, err := open(t).Get(0); err == nil {
		t.Error("block with offsets past the data: no error")
	}

	// Garbage instead of zstd.
	os.WriteFile(idx, good, 0o644)
	os.WriteFile(filepath.Join(dir, "s.bin"), []byte("not zstd at all, not at all"), 0o644)
	if _, err := open(t).Get(0); err == nil {
		t.Error("garbled block: no error")
	}
	if _, err := DecodeMeta([]byte{0xff, 0xff, 0xff}); err == nil {
		t.Error("garbled meta: no error")
	}
	if _, err := splitPayload([]byte{5, 'a'}, 1); err == nil {
		t.Error("record shorter than its length: no error")
	}

	for _, test := range []struct {
		name string
		idx  []byte
		want string
	}{
		{"too short", []byte{1, 2, 3}, "not a record store index"},
		{"wrong magic", append([]byte("NOTANIDX"), good[8:]...), "not a record store index"},
		{"truncated offsets", good[:len(good)-8], "want"},
		{"zero records a block", func() []byte {
			b := append([]byte(nil), good...)
			binary.LittleEndian.PutUint64(b[len(storeMagic)+8:], 0)
			return b
		}(), "bad header"},
		{"unknown codec", func() []byte {
			b := append([]byte(nil), good...)
			binary.LittleEndian.PutUint64(b[len(storeMagic):], 9)
			return b
		}(), "bad header"},
	} {
		t.Run(test.name, func(t *testing.T) {
			os.WriteFile(idx, test.idx, 0o644)
			if _, err := Open(dir, "s"); err == nil || !strings.Contains(err.Error(), test.want) {
				t.Errorf("got %v, want an error saying %q", err, test.want)
			}
		})
	}
}

// TestDamagedStoreIsAnError flips each byte of a store's files in turn, in
// the records and in the index (header and offsets), of each codec: Open
// refuses the store, or reading every record fails with an error naming
// the block (its checksum, or its offsets); no read returns a changed
// record.
func TestDamagedStoreIsAnError(t *testing.T) {
	records := storeRecords()[3:23] // small ones: a flip per byte

	for _, codec := range []int{codecNone, codecZstd} {
		dir := t.TempDir()
		if err := writeStore(dir, "s", records, codec, 8); err != nil {
			t.Fatal(err)
		}
		for _, file := range []string{"s.bin", "s.idx"} {
			path := filepath.Join(dir, file)
			sound, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			for at := range sound {
				bad := append([]byte(nil), sound...)
				bad[at] ^= 0x10
				if err := os.WriteFile(path, bad, 0o644); err != nil {
					t.Fatal(err)
				}
				if err := readDamaged(dir, records); err == "" {
					t.Errorf("codec %d, %s byte %d flipped: every record read back, no error", codec, file, at)
				} else if err != "refused" && !strings.Contains(err, "block ") {
					t.Errorf("codec %d, %s byte %d flipped: %s, want an error naming the block", codec, file, at, err)
				}
			}
			if err := os.WriteFile(path, sound, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
}

// readDamaged opens the store s in dir and reads every record: "refused"
// when Open fails, the first read's error, or "" when every record reads
// back as records holds it. A record read back otherwise panics the test.
func readDamaged(dir string, records [][]byte) string {
	s, err := Open(dir, "s")
	if err != nil {
		return "refused"
	}
	defer s.Close()
	for i, want := range records {
		got, err := s.Get(i)
		if err != nil {
			return err.Error()
		}
		if string(got) != string(want) {
			panic(fmt.Sprintf("record %d read back changed, without an error", i))
		}
	}
	return ""
}
