package index

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"

	"github.com/klauspost/compress/zstd"
	"github.com/mcpsearch/mcpsearch/index/catalog"
)

// Record stores keep what a search returns or re-ranks by outside bleve,
// one record per item in catalog order, in two stores so that re-ranking
// never decompresses an object:
//
//	meta.bin     name, server and name words of each item (uvarint-prefixed),
//	             metasPerBlock records a block, uncompressed (small, and zip
//	             does better on plain text than on compressed records)
//	objects.bin  the MCP objects, objectsPerBlock records a block, each block
//	             one zstd frame
//	<store>.idx  a header (magic, codec, records a block, record count) and
//	             the little-endian uint64 offset of every block and the end
//	             of the last
//
// A block's payload is the uvarint length of each of its records followed
// by the records. Reading a record is one positioned read of its block;
// nothing is loaded at open, so cold start does not grow with the catalog,
// and bleve stores no fields, so its segment stays small.
const (
	metaStore   = "meta"
	objectStore = "objects"
)

// objectsPerBlock groups MCP objects for compression: objects of one server
// share most of their vocabulary, so a block of 16 compresses far better
// than one object alone (at 100k tools, zipped: 31 MB against 47 MB for
// objects compressed one by one), and decoding one block takes tens of
// microseconds. A search decodes the block of every item of its page, so
// larger blocks trade latency for size. A catalog whose objects are large
// in all is bound by Lambda's artifact limit, and its searches take longer
// anyway: its blocks double with every doubling of the objects' bytes past
// smallObjectBytes, up to 128 objects. Measured on the bundled catalog
// scaled to 100k tools (215 MB of objects): objects 32.5 MB at 16 a block,
// 28.0 at 32, 23.8 at 64 and 20.3 at 128; decoding the block of a random
// object 29, 45, 79 and 135 µs.
func objectsPerBlock(objectBytes int64) int {
	per := 16
	for limit := int64(smallObjectBytes); objectBytes > limit && per < 128; limit *= 2 {
		per *= 2
	}
	return per
}

// smallObjectBytes is the size of MCP objects up to which they are stored
// 16 a block (the default catalog has 10 MB of them, 10k tools 22 MB).
const smallObjectBytes = 40 << 20

// metasPerBlock keeps the meta store's offsets small (8 bytes a block).
const metasPerBlock = 16

// zstdDecoder decodes the blocks of every open store; DecodeAll is safe for
// concurrent use. A raw-content dictionary shrank the objects by a tenth
// (at 100k tools, zipped: 27.7 MB against 31.2 MB) but more than doubled
// the decoding of a block (51 µs against 22 µs for 16 objects), which a
// search does for every item of its page: not kept.
var zstdDecoder, _ = zstd.NewReader(nil, zstd.WithDecoderConcurrency(4), zstd.WithDecoderMaxMemory(maxBlockBytes))

// Store codecs.
const (
	codecNone = 0
	codecZstd = 1
)

// storeMagic opens every .idx file; storeHeaderSize is the header's length.
const (
	storeMagic      = "MCPSIDX1"
	storeHeaderSize = len(storeMagic) + 8 + 8 + 8
)

// maxBlockBytes bounds a block, compressed or not: larger offsets are a
// corrupt store.
const maxBlockBytes = 1 << 30

// meta is what re-ranking reads of an item: its own name, its server and
// the analysed words of its name (space-separated), analysed at build time.
type meta struct {
	label, server, words string
}

// newMeta analyses an item for its meta record.
func newMeta(it *catalog.Item) meta {
	return meta{label: it.Label, server: it.Server, words: strings.Join(analyze(it.Label), " ")}
}

// writeStores writes the meta and object stores of cat's items into dir.
func writeStores(cat *catalog.Catalog, dir string) error {
	metas := make([][]byte, len(cat.Items))
	objects := make([][]byte, len(cat.Items))
	var objectBytes int64
	for i := range cat.Items {
		it := &cat.Items[i]
		metas[i] = encodeMeta(newMeta(it))
		objects[i] = it.Object
		objectBytes += int64(len(it.Object))
	}
	if err := writeStore(dir, metaStore, metas, codecNone, metasPerBlock); err != nil {
		return err
	}
	return writeStore(dir, objectStore, objects, codecZstd, objectsPerBlock(objectBytes))
}

// writeStore writes records as the store called name in dir, perBlock
// records a block, compressed with codec.
func writeStore(dir, name string, records [][]byte, codec, perBlock int) (err error) {
	defer wrapf(&err, "writing store %s", name)
	enc, err := newBlockEncoder(codec)
	if err != nil {
		return err
	}
	data, err := os.Create(filepath.Join(dir, name+".bin"))
	if err != nil {
		return err
	}
	defer data.Close()
	idx := storeHeader(codec, perBlock, len(records))
	var pos uint64
	for start := 0; start < len(records); start += perBlock {
		idx = binary.LittleEndian.AppendUint64(idx, pos)
		block := enc(blockPayload(records[start:min(start+perBlock, len(records))]))
		if _, err := data.Write(block); err != nil {
			return err
		}
		pos += uint64(len(block))
	}
	idx = binary.LittleEndian.AppendUint64(idx, pos)
	if err := data.Close(); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, name+".idx"), idx, 0o644)
}

func storeHeader(codec, perBlock, count int) []byte {
	h := append(make([]byte, 0, storeHeaderSize), storeMagic...)
	h = binary.LittleEndian.AppendUint64(h, uint64(codec))
	h = binary.LittleEndian.AppendUint64(h, uint64(perBlock))
	return binary.LittleEndian.AppendUint64(h, uint64(count))
}

// blockPayload lays out records as one block: their lengths, then their
// bytes.
func blockPayload(records [][]byte) []byte {
	var b []byte
	for _, r := range records {
		b = binary.AppendUvarint(b, uint64(len(r)))
	}
	for _, r := range records {
		b = append(b, r...)
	}
	return b
}

// newBlockEncoder returns the compression of codec.
func newBlockEncoder(codec int) (func([]byte) []byte, error) {
	switch codec {
	case codecNone:
		return func(b []byte) []byte { return b }, nil
	case codecZstd:
		enc, err := zstd.NewWriter(nil, zstd.WithEncoderLevel(zstd.SpeedBestCompression),
			zstd.WithEncoderCRC(false), zstd.WithSingleSegment(true), zstd.WithEncoderConcurrency(1))
		if err != nil {
			return nil, err
		}
		return func(b []byte) []byte { return enc.EncodeAll(b, nil) }, nil
	}
	return nil, fmt.Errorf("unknown codec %d", codec)
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
	name          string
	data, offsets *os.File
	codec         int
	perBlock      int
	count         int
}

func openStore(dir, name string) (s *store, err error) {
	s = &store{name: name}
	if s.data, err = os.Open(filepath.Join(dir, name+".bin")); err != nil {
		return nil, err
	}
	if s.offsets, err = os.Open(filepath.Join(dir, name+".idx")); err != nil {
		s.data.Close()
		return nil, err
	}
	if err := s.readHeader(); err != nil {
		s.close()
		return nil, err
	}
	return s, nil
}

// readHeader reads and checks the .idx header against the file's size.
func (s *store) readHeader() error {
	h := make([]byte, storeHeaderSize)
	st, err := s.offsets.Stat()
	if err != nil {
		return err
	}
	if _, err := s.offsets.ReadAt(h, 0); err != nil || string(h[:len(storeMagic)]) != storeMagic {
		return fmt.Errorf("%s.idx: not a record store index", s.name)
	}
	fields := h[len(storeMagic):]
	codec, perBlock, count := binary.LittleEndian.Uint64(fields), binary.LittleEndian.Uint64(fields[8:]), binary.LittleEndian.Uint64(fields[16:])
	if codec > codecZstd || perBlock == 0 || perBlock > 1<<16 || count > 1<<32 {
		return fmt.Errorf("%s.idx: bad header (codec %d, %d records a block, %d records)", s.name, codec, perBlock, count)
	}
	s.codec, s.perBlock, s.count = int(codec), int(perBlock), int(count)
	if want := int64(storeHeaderSize) + 8*int64(s.blocks()+1); st.Size() != want {
		return fmt.Errorf("%s.idx: %d bytes, want %d for %d records", s.name, st.Size(), want, count)
	}
	return nil
}

func (s *store) blocks() int { return (s.count + s.perBlock - 1) / s.perBlock }

func (s *store) close() error {
	return errors.Join(s.data.Close(), s.offsets.Close())
}

// get reads record n (from 0).
func (s *store) get(n int) ([]byte, error) {
	records, err := s.getAll([]int{n})
	if err != nil {
		return nil, err
	}
	return records[0], nil
}

// getAll reads records ns, in that order, decoding each block once. The
// records are copies: the blocks' buffers go back to a pool, so a search
// allocates little more than the objects it returns (measured: fewer
// garbage collections, which slow bleve's collector too).
func (s *store) getAll(ns []int) ([][]byte, error) {
	out := make([][]byte, len(ns))
	wanted := map[int][]int{} // block → indexes into ns
	var order []int
	for i, n := range ns {
		if n < 0 || n >= s.count {
			return nil, fmt.Errorf("%s: record %d of %d", s.name, n, s.count)
		}
		b := n / s.perBlock
		if _, ok := wanted[b]; !ok {
			order = append(order, b)
		}
		wanted[b] = append(wanted[b], i)
	}
	for _, b := range order {
		if err := s.copyRecords(b, ns, wanted[b], out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// copyRecords decodes block b and copies into out[i] record ns[i] of each
// i in which.
func (s *store) copyRecords(b int, ns, which []int, out [][]byte) error {
	buf := blockBuffers.Get().(*blockBuffer)
	defer blockBuffers.Put(buf)
	records, err := s.block(b, buf)
	if err != nil {
		return fmt.Errorf("%s: record %d: %w", s.name, ns[which[0]], err)
	}
	for _, i := range which {
		r := ns[i] % s.perBlock
		if r >= len(records) {
			return fmt.Errorf("%s: record %d: block %d holds %d records", s.name, ns[i], b, len(records))
		}
		out[i] = bytes.Clone(records[r])
		if out[i] == nil {
			out[i] = []byte{}
		}
	}
	return nil
}

// blockBuffer holds one block as read and as decoded, reused across reads.
type blockBuffer struct{ raw, decoded []byte }

var blockBuffers = sync.Pool{New: func() any { return new(blockBuffer) }}

// block reads and decodes block b, into buf, and splits it into its
// records, which point into buf.
func (s *store) block(b int, buf *blockBuffer) ([][]byte, error) {
	var span [16]byte
	if _, err := s.offsets.ReadAt(span[:], int64(storeHeaderSize+8*b)); err != nil {
		return nil, fmt.Errorf("block %d offsets: %w", b, err)
	}
	start, end := binary.LittleEndian.Uint64(span[:8]), binary.LittleEndian.Uint64(span[8:])
	if end < start || end-start > maxBlockBytes {
		return nil, fmt.Errorf("block %d: corrupt offsets", b)
	}
	buf.raw = slices.Grow(buf.raw[:0], int(end-start))[:end-start]
	if n, err := s.data.ReadAt(buf.raw, int64(start)); n < len(buf.raw) {
		return nil, fmt.Errorf("block %d: read %d of %d bytes: %w", b, n, len(buf.raw), cmp.Or(err, io.ErrUnexpectedEOF))
	}
	payload := buf.raw
	if s.codec == codecZstd {
		var err error
		if buf.decoded, err = zstdDecoder.DecodeAll(buf.raw, buf.decoded[:0]); err != nil {
			return nil, fmt.Errorf("block %d: %w", b, err)
		}
		payload = buf.decoded
	}
	return splitPayload(payload, min(s.perBlock, s.count-b*s.perBlock))
}

// splitPayload splits a block's payload into its n records.
func splitPayload(p []byte, n int) ([][]byte, error) {
	lengths := make([]uint64, n)
	for i := range lengths {
		l, k := binary.Uvarint(p)
		if k <= 0 {
			return nil, errors.New("corrupt block: bad record length")
		}
		lengths[i], p = l, p[k:]
	}
	records := make([][]byte, n)
	for i, l := range lengths {
		if uint64(len(p)) < l {
			return nil, errors.New("corrupt block: records shorter than their lengths")
		}
		records[i], p = p[:l:l], p[l:]
	}
	return records, nil
}
