package index

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/golang/snappy"
)

// Record stores keep what a search returns or re-ranks by outside bleve,
// one record per item in catalog order, in two stores so that re-ranking
// never decompresses an object:
//
//	meta.bin     name, server and name words of each item (uvarint-prefixed)
//	objects.bin  the MCP object of each item
//	<store>.idx  little-endian uint64 offsets: the start of every record
//	             and the end of the last
//
// Each record is snappy-compressed on its own. Reading one is one
// positioned read; nothing is loaded at open, so cold start does not grow
// with the catalog, and bleve stores no fields, so its segment stays small.
const (
	metaStore   = "meta"
	objectStore = "objects"
)

// meta is what re-ranking reads of an item: its own name, its server and
// the analysed words of its name (space-separated), analysed at build time.
type meta struct {
	label, server, words string
}

// newMeta analyses an item for its meta record.
func newMeta(it *Item) meta {
	return meta{label: it.Label, server: it.Server, words: strings.Join(analyze(it.Label), " ")}
}

// writeStores writes the meta and object stores of cat's items into dir.
func writeStores(cat *Catalog, dir string) error {
	metas := make([][]byte, len(cat.Items))
	objects := make([][]byte, len(cat.Items))
	for i := range cat.Items {
		it := &cat.Items[i]
		metas[i] = encodeMeta(newMeta(it))
		objects[i] = it.Object
	}
	if err := writeStore(dir, metaStore, metas); err != nil {
		return err
	}
	return writeStore(dir, objectStore, objects)
}

// writeStore writes records as the store called name in dir.
func writeStore(dir, name string, records [][]byte) error {
	data, err := os.Create(filepath.Join(dir, name+".bin"))
	if err != nil {
		return err
	}
	defer data.Close()
	offsets := make([]byte, 0, 8*(len(records)+1))
	var pos uint64
	for _, r := range records {
		offsets = binary.LittleEndian.AppendUint64(offsets, pos)
		block := snappy.Encode(nil, r)
		if _, err := data.Write(block); err != nil {
			return err
		}
		pos += uint64(len(block))
	}
	offsets = binary.LittleEndian.AppendUint64(offsets, pos)
	if err := data.Close(); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, name+".idx"), offsets, 0o644)
}

func encodeMeta(m meta) []byte {
	var b []byte
	for _, s := range []string{m.label, m.server, m.words} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

func decodeMeta(b []byte) (meta, error) {
	var parts [3]string
	for i := range parts {
		n, k := binary.Uvarint(b)
		if k <= 0 || uint64(len(b)-k) < n {
			return meta{}, errors.New("corrupt meta record")
		}
		parts[i], b = string(b[k:k+int(n)]), b[k+int(n):]
	}
	return meta{label: parts[0], server: parts[1], words: parts[2]}, nil
}

// store reads the records of one store by their position in catalog order.
type store struct {
	data, offsets *os.File
	count         int
}

func openStore(dir, name string) (*store, error) {
	data, err := os.Open(filepath.Join(dir, name+".bin"))
	if err != nil {
		return nil, err
	}
	offsets, err := os.Open(filepath.Join(dir, name+".idx"))
	if err != nil {
		data.Close()
		return nil, err
	}
	st, err := offsets.Stat()
	if err != nil || st.Size()%8 != 0 || st.Size() < 8 {
		data.Close()
		offsets.Close()
		return nil, fmt.Errorf("%s.idx: not a list of offsets", name)
	}
	return &store{data: data, offsets: offsets, count: int(st.Size()/8) - 1}, nil
}

func (s *store) close() error {
	return errors.Join(s.data.Close(), s.offsets.Close())
}

// get reads record n (from 0).
func (s *store) get(n int) ([]byte, error) {
	if n < 0 || n >= s.count {
		return nil, fmt.Errorf("record %d of %d", n, s.count)
	}
	var span [16]byte
	if _, err := s.offsets.ReadAt(span[:], int64(8*n)); err != nil {
		return nil, fmt.Errorf("record %d offsets: %w", n, err)
	}
	start, end := binary.LittleEndian.Uint64(span[:8]), binary.LittleEndian.Uint64(span[8:])
	if end < start || end-start > 1<<30 {
		return nil, fmt.Errorf("record %d: corrupt offsets", n)
	}
	block := make([]byte, end-start)
	if _, err := s.data.ReadAt(block, int64(start)); err != nil && !errors.Is(err, io.EOF) {
		return nil, fmt.Errorf("record %d: %w", n, err)
	}
	raw, err := snappy.Decode(nil, block)
	if err != nil {
		return nil, fmt.Errorf("record %d: %w", n, err)
	}
	return raw, nil
}
