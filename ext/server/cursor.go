package server

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/binary"
	"fmt"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext"
)

// A cursor is opaque to clients. It holds the index version it was made on,
// a binding (a hash of the method, query and filter that made it) and the
// offset of the next item, and is signed with the server's cursor key:
//
//	base64url( version[8] | binding[8] | offset uvarint | mac[12] )
//
// The index of a deployment never changes, so an offset is a stable position.
const (
	cursorMACSize = 12
	maxCursorLen  = 128 // encoded; far above any cursor we issue
)

// cursorCodec signs and checks cursors for one index.
type cursorCodec struct {
	key     []byte
	version [8]byte
	label   string // printable index version, for messages
}

func newCursorCodec(version string, key []byte) *cursorCodec {
	c := &cursorCodec{key: key, label: version}
	copy(c.version[:], versionPrefix(version))
	if len(c.key) == 0 {
		sum := sha256.Sum256([]byte("mcpsearch cursor key\x00" + version))
		c.key = sum[:]
	}
	return c
}

func versionPrefix(version string) []byte {
	sum := sha256.Sum256([]byte(version))
	return sum[:8]
}

// binding hashes what a cursor is bound to: the method and its canonical
// parameters (query, filter, caller).
func binding(parts ...string) [8]byte {
	h := sha256.New()
	for _, p := range parts {
		var n [binary.MaxVarintLen64]byte
		h.Write(n[:binary.PutUvarint(n[:], uint64(len(p)))])
		h.Write([]byte(p))
	}
	var b [8]byte
	copy(b[:], h.Sum(nil))
	return b
}

func (c *cursorCodec) encode(bind [8]byte, offset int) string {
	buf := make([]byte, 0, 16+binary.MaxVarintLen64+cursorMACSize)
	buf = append(buf, c.version[:]...)
	buf = append(buf, bind[:]...)
	buf = binary.AppendUvarint(buf, uint64(offset))
	buf = append(buf, c.mac(buf)...)
	return base64.RawURLEncoding.EncodeToString(buf)
}

func (c *cursorCodec) mac(payload []byte) []byte {
	m := hmac.New(sha256.New, c.key)
	m.Write(payload)
	return m.Sum(nil)[:cursorMACSize]
}

// decode checks s and returns the offset it holds. Every failure wraps
// ext.ErrInvalidParams and says which check failed.
func (c *cursorCodec) decode(s string, bind [8]byte) (offset int, err error) {
	if len(s) > maxCursorLen {
		return 0, fmt.Errorf("%w: cursor longer than %d characters", ext.ErrInvalidParams, maxCursorLen)
	}
	if strings.IndexFunc(s, notBase64URL) >= 0 {
		return 0, fmt.Errorf("%w: cursor: not a cursor issued by this server", ext.ErrInvalidParams)
	}
	raw, err := base64.RawURLEncoding.Strict().DecodeString(s)
	if err != nil || len(raw) < 16+1+cursorMACSize {
		return 0, fmt.Errorf("%w: cursor: not a cursor issued by this server", ext.ErrInvalidParams)
	}
	payload, mac := raw[:len(raw)-cursorMACSize], raw[len(raw)-cursorMACSize:]
	if !hmac.Equal(payload[:8], c.version[:]) {
		return 0, fmt.Errorf("%w: cursor issued by another index version; this server runs index %s",
			ext.ErrInvalidParams, c.label)
	}
	if !hmac.Equal(mac, c.mac(payload)) {
		return 0, fmt.Errorf("%w: cursor signature does not match (garbled or forged)", ext.ErrInvalidParams)
	}
	if !hmac.Equal(payload[8:16], bind[:]) {
		return 0, fmt.Errorf("%w: cursor issued for another query, filter, list or caller", ext.ErrInvalidParams)
	}
	off, n := binary.Uvarint(payload[16:])
	if n <= 0 || 16+n != len(payload) || off > 1<<31 {
		return 0, fmt.Errorf("%w: cursor has a malformed offset", ext.ErrInvalidParams)
	}
	return int(off), nil
}

// notBase64URL reports runes outside the unpadded base64url alphabet. The
// decoder skips \r and \n, so they are refused before it sees them: a
// cursor has one spelling.
func notBase64URL(r rune) bool {
	return !(r >= 'A' && r <= 'Z' || r >= 'a' && r <= 'z' || r >= '0' && r <= '9' || r == '-' || r == '_')
}
