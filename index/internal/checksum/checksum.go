// Package checksum is the CRC-32C (Castagnoli) that a bundle's files carry
// for the parts their readers check where they read them: a block of a
// record store, a list of item vectors, a term's postings among the
// written requests. The CRC is computed in hardware (SSE 4.2 on amd64,
// the CRC32 instructions on arm64): about 20 GB/s on the build machine,
// 1.4 µs for a list of 256 vectors, so a part is checked each time it is
// read, or, where a file is mapped and read in place, once, the first
// time, and remembered (Checked).
//
// A checksum detects damage, not tampering: whoever can write a bundle can
// write its checksums too. The manifest's SHA-256 of every file
// (`mcpsearch verify`) is the check of a bundle as a whole.
package checksum

import (
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"sync/atomic"
)

var table = crc32.MakeTable(crc32.Castagnoli)

// Of is the CRC-32C of the concatenation of parts.
func Of(parts ...[]byte) uint32 {
	var crc uint32
	for _, p := range parts {
		crc = crc32.Update(crc, table, p)
	}
	return crc
}

// Update extends crc, the CRC-32C of some bytes, with p.
func Update(crc uint32, p []byte) uint32 { return crc32.Update(crc, table, p) }

// Append appends crc to b, little-endian, as the files store it.
func Append(b []byte, crc uint32) []byte { return binary.LittleEndian.AppendUint32(b, crc) }

// Split splits b into what it checks and the little-endian CRC-32C its
// last 4 bytes hold; ok is false when b is shorter than a CRC.
func Split(b []byte) (body []byte, crc uint32, ok bool) {
	if len(b) < 4 {
		return nil, 0, false
	}
	n := len(b) - 4
	return b[:n], binary.LittleEndian.Uint32(b[n:]), true
}

// Damage is a part of a bundle's file whose bytes do not have the
// checksum written at build time: the file is damaged.
type Damage struct {
	File string // the file, as the bundle names it ("objects.bin")
	Part string // what of it ("block 12", "the postings of term \"mail\"")
}

func (d *Damage) Error() string {
	return fmt.Sprintf("%s: %s does not have the checksum written at build time: the file is damaged (mcpsearch verify checks every file's hash)", d.File, d.Part)
}

// Check returns a *Damage naming file and part when body's CRC-32C is not
// want.
func Check(file, part string, want uint32, body ...[]byte) error {
	if Of(body...) != want {
		return &Damage{File: file, Part: part}
	}
	return nil
}

// Checked remembers which of n parts of a mapped file have been checked
// and found sound, so that each is checked once in the life of the
// process, the first time a reader needs it. A part found damaged is not
// remembered: every read of it fails. It is safe for concurrent use (two
// readers may check one part at once; both find the same).
type Checked struct{ words []atomic.Uint64 }

// NewChecked remembers n parts, none checked.
func NewChecked(n int) *Checked { return &Checked{words: make([]atomic.Uint64, (n+63)/64)} }

// Has reports whether part i was found sound.
func (c *Checked) Has(i int) bool { return c.words[i/64].Load()&(1<<(i%64)) != 0 }

// Add records that part i was found sound.
func (c *Checked) Add(i int) { c.words[i/64].Or(1 << (i % 64)) }
