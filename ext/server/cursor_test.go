package server

import (
	"errors"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

func TestCursorRoundTrip(t *testing.T) {
	t.Parallel()
	c := newCursorCodec("v1", []byte("0123456789abcdef"))
	bind := binding("search", "tool", "merge request", "{}")
	for _, offset := range []int{0, 1, 127, 128, 999, 1 << 20} {
		got, err := c.decode(c.encode(bind, offset), bind)
		if err != nil || got != offset {
			t.Errorf("offset %d: got %d, %v", offset, got, err)
		}
	}
	forged := newCursorCodec("v1", []byte("another key, same version"))
	if _, err := c.decode(forged.encode(bind, 5), bind); !errors.Is(err, ext.ErrInvalidParams) {
		t.Errorf("cursor signed with another key: got %v, want invalid params", err)
	}
}

func FuzzDecodeCursor(f *testing.F) {
	c := newCursorCodec("v1", []byte("0123456789abcdef"))
	bind := binding("list", "tool")
	f.Add(c.encode(bind, 100))
	f.Add("")
	f.Add("%%%")
	f.Add("AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA")
	f.Fuzz(func(t *testing.T, s string) {
		offset, err := c.decode(s, bind)
		if err != nil && !errors.Is(err, ext.ErrInvalidParams) {
			t.Fatalf("decode(%q): error %v is not invalid params", s, err)
		}
		if err == nil && (offset < 0 || c.encode(bind, offset) != s) {
			t.Fatalf("decode(%q) accepted a cursor this codec did not issue (offset %d)", s, offset)
		}
	})
}
