package store

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
	"sync"

	"github.com/klauspost/compress/zstd"

	"github.com/mcpsearch/mcpsearch/index/internal/checksum"
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
// by the records. A block is stored as its payload (compressed or not),
// then the CRC-32C of the store's header, the block's number (uint64) and
// the stored payload (package checksum): a read checks it before decoding,
// so a damaged block, a damaged offset (which reads another span) and a
// damaged header (another codec or block size) are each an error naming
// the store and the block, never a changed record. Reading a record is one
// positioned read of its block; nothing is loaded at open, so cold start
// does not grow with the catalog, and bleve stores no fields, so its
// segment stays small.
const (
	MetaStore   = "meta"
	ObjectStore = "objects"
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
// It is made on the first read of a compressed block.
var zstdDecoder = sync.OnceValues(func() (*zstd.Decoder, error) {
	return zstd.NewReader(nil, zstd.WithDecoderConcurrency(4), zstd.WithDecoderMaxMemory(maxBlockBytes))
})

// Store codecs.
const (
	codecNone = 0
	codecZstd = 1
)

// storeMagic opens every .idx file; storeHeaderSize is the header's length.
const (
	storeMagic      = "MCPSIDX2"
	storeHeaderSize = len(storeMagic) + 8 + 8 + 8
)

// maxBlockBytes bounds a block, compressed or not: larger offsets are a
// corrupt store.
const maxBlockBytes = 1 << 30

// Meta is what re-ranking reads of an item: its own name, its server and
// the analysed words of its name (space-separated), analysed at build time.
type Meta struct {
	Label, Server, Words string
}

// Write writes the meta and object stores of the catalog's items into
// dir: metas and objects are theirs, in catalog order.
func Write(dir string, metas []Meta, objects [][]byte) error {
	records := make([][]byte, len(metas))
	var objectBytes int64
	for i := range metas {
		records[i] = encodeMeta(metas[i])
		objectBytes += int64(len(objects[i]))
	}
	if err := writeStore(dir, MetaStore, records, codecNone, metasPerBlock); err != nil {
		return err
	}
	return writeStore(dir, ObjectStore, objects, codecZstd, objectsPerBlock(objectBytes))
}

// writeStore writes records as the store called name in dir, perBlock
// records a block, compressed with codec.
func writeStore(dir, name string, records [][]byte, codec, perBlock int) (err error) {
	defer func() {
		if err != nil {
			err = fmt.Errorf("writing store %s: %w", name, err)
		}
	}()
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
	seed := checksum.Of(idx)
	var pos uint64
	for start, b := 0, 0; start < len(records); start, b = start+perBlock, b+1 {
		idx = binary.LittleEndian.AppendUint64(idx, pos)
		stored := enc(blockPayload(records[start:min(start+perBlock, len(records))]))
		block := checksum.Append(stored, blockCRC(seed, b, stored))
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

// blockCRC is the checksum of block b, stored as stored, of the store whose
// header's CRC-32C is seed.
func blockCRC(seed uint32, b int, stored []byte) uint32 {
	var number [8]byte
	binary.LittleEndian.PutUint64(number[:], uint64(b))
	return checksum.Update(checksum.Update(seed, number[:]), stored)
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

func encodeMeta(m Meta) []byte {
	var b []byte
	for _, s := range []string{m.Label, m.Server, m.Words} {
		b = binary.AppendUvarint(b, uint64(len(s)))
		b = append(b, s...)
	}
	return b
}

// DecodeMeta decodes a record of the meta store.
func DecodeMeta(b []byte) (Meta, error) {
	var parts [3]string
	for i := range parts {
		n, k := binary.Uvarint(b)
		if k <= 0 || uint64(len(b)-k) < n {
			return Meta{}, errors.New("corrupt meta record")
		}
		parts[i], b = string(b[k:k+int(n)]), b[k+int(n):]
	}
	return Meta{Label: parts[0], Server: parts[1], Words: parts[2]}, nil
}

// Store reads the records of one store by their position in catalog order.
// It is safe for concurrent use.
type Store struct {
	name          string
	data, offsets *os.File
	codec         int
	perBlock      int
	count         int
	seed          uint32 // the CRC-32C of the header, which every block's checksum covers
}

// Open opens the store called name (MetaStore, ObjectStore) in dir.
func Open(dir, name string) (s *Store, err error) {
	s = &Store{name: name}
	if s.data, err = os.Open(filepath.Join(dir, name+".bin")); err != nil {
		return nil, err
	}
	if s.offsets, err = os.Open(filepath.Join(dir, name+".idx")); err != nil {
		s.data.Close()
		return nil, err
	}
	if err := s.readHeader(); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// readHeader reads and checks the .idx header against the file's size.
func (s *Store) readHeader() error {
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
	s.codec, s.perBlock, s.count, s.seed = int(codec), int(perBlock), int(count), checksum.Of(h)
	if want := int64(storeHeaderSize) + 8*int64(s.blocks()+1); st.Size() != want {
		return fmt.Errorf("%s.idx: %d bytes, want %d for %d records", s.name, st.Size(), want, count)
	}
	return nil
}

func (s *Store) blocks() int { return (s.count + s.perBlock - 1) / s.perBlock }

// Close releases the store.
func (s *Store) Close() error {
	return errors.Join(s.data.Close(), s.offsets.Close())
}

// Count is the number of records.
func (s *Store) Count() int { return s.count }

// Get reads record n (from 0).
func (s *Store) Get(n int) ([]byte, error) {
	records, err := s.GetAll([]int{n})
	if err != nil {
		return nil, err
	}
	return records[0], nil
}

// GetAll reads records ns, in that order, decoding each block once. The
// records are copies: the blocks' buffers go back to a pool, so a search
// allocates little more than the objects it returns (measured: fewer
// garbage collections, which slow bleve's collector too).
func (s *Store) GetAll(ns []int) ([][]byte, error) {
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
func (s *Store) copyRecords(b int, ns, which []int, out [][]byte) error {
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
func (s *Store) block(b int, buf *blockBuffer) ([][]byte, error) {
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
	payload, crc, ok := checksum.Split(buf.raw)
	if !ok || blockCRC(s.seed, b, payload) != crc {
		return nil, &checksum.Damage{File: s.name + ".bin", Part: fmt.Sprintf("block %d", b)}
	}
	if s.codec == codecZstd {
		dec, err := zstdDecoder()
		if err != nil {
			return nil, fmt.Errorf("block %d: zstd decoder: %w", b, err)
		}
		if buf.decoded, err = dec.DecodeAll(payload, buf.decoded[:0]); err != nil {
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
