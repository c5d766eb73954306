package hosted

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/index/internal/checksum"
)

func testItems() ([]catalog.Item, [][]float32) {
	items := []catalog.Item{{Kind: ext.KindTool, Name: "a"}, {Kind: ext.KindTool, Name: "b"}, {Kind: ext.KindPrompt, Name: "c"}}
	vecs := [][]float32{{1, 0, 0, 0}, {0, 1, 0, 0}, {0.7, 0.7, 0, 0.1}}
	return items, vecs
}

var counts = map[ext.Kind]int{ext.KindTool: 2, ext.KindPrompt: 1}

// TestRoundTrip: the nearest item to a query equal to an item's vector is
// that item, at a cosine near 1, and Cosines agree with Nearest.
func TestRoundTrip(t *testing.T) {
	dir := t.TempDir()
	items, vecs := testItems()
	if err := Write(dir, Model{Backend: "openai", Name: "m"}, items, vecs); err != nil {
		t.Fatal(err)
	}
	v, err := Open(dir, counts)
	if err != nil {
		t.Fatal(err)
	}
	defer v.Close()
	if v.Model().Dims != 4 {
		t.Errorf("dims %d, want the vectors' 4", v.Model().Dims)
	}
	q, err := v.Query([]float32{0, 2, 0, 0})
	if err != nil {
		t.Fatal(err)
	}
	hits, _ := v.Nearest(ext.KindTool, q, 2, nil)
	cos, _ := v.Cosines(ext.KindTool, q, []int{1, 0})
	if len(hits) != 2 || hits[0].Ord != 1 || math.Abs(float64(hits[0].Cosine)-1) > 0.02 || cos[0] != hits[0].Cosine || cos[1] != hits[1].Cosine {
		t.Errorf("got %+v and cosines %v, want item 1 first at about 1", hits, cos)
	}
	if _, err := v.Query([]float32{1, 2}); err == nil {
		t.Error("a query of 2 dimensions was taken for items of 4")
	}
}

// TestOpenRefusesDamage: a file cut short, of other counts, or whose head
// is damaged is an error, never a crash; no file is no hosted vectors.
func TestOpenRefusesDamage(t *testing.T) {
	if v, err := Open(t.TempDir(), counts); v != nil || err != nil {
		t.Errorf("no file: got %v, %v; want nothing", v, err)
	}
	dir := t.TempDir()
	items, vecs := testItems()
	if err := Write(dir, Model{Backend: "openai", Name: "m"}, items, vecs); err != nil {
		t.Fatal(err)
	}
	whole, _ := os.ReadFile(filepath.Join(dir, File))
	for name, data := range map[string][]byte{
		"cut":       whole[:len(whole)-3],
		"head":      append(append([]byte{}, whole[:14]...), '!'),
		"no magic":  []byte("MCPSIV1\n"),
		"huge head": append([]byte(magic), 0xff, 0xff, 0xff, 0x7f),
	} {
		os.WriteFile(filepath.Join(dir, File), data, 0o644)
		if v, err := Open(dir, counts); err == nil {
			v.Close()
			t.Errorf("%s: opened", name)
		}
	}
	os.WriteFile(filepath.Join(dir, File), whole, 0o644)
	if _, err := Open(dir, map[ext.Kind]int{ext.KindTool: 3}); err == nil {
		t.Error("other counts: opened")
	}
	if err := Write(dir, Model{Backend: "openai", Name: "m"}, items, [][]float32{{1}, {1, 2}, {float32(math.NaN())}}); err == nil {
		t.Error("vectors of unequal dimensions were written")
	}
}

// TestDamagedFileIsAnError flips each byte of a hosted vectors file in
// turn: Open refuses it, or the first read of the damaged rows fails with
// a *checksum.Damage naming the file; no read returns a changed cosine.
func TestDamagedFileIsAnError(t *testing.T) {
	dir := t.TempDir()
	items, vecs := testItems()
	if err := Write(dir, Model{Backend: "openai", Name: "m"}, items, vecs); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, File)
	sound, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, err := readAll(dir)
	if err != nil {
		t.Fatal(err)
	}
	for at := range sound {
		bad := slices.Clone(sound)
		bad[at] ^= 0x01
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := readAll(dir)
		var damage *checksum.Damage
		switch {
		case errors.As(err, &damage) || err != nil && strings.HasPrefix(err.Error(), File):
		case err != nil:
			t.Errorf("byte %d: %v, want an error naming %s", at, err, File)
		case got != want:
			t.Errorf("byte %d flipped: the vectors read back otherwise, without an error", at)
		}
	}
}

// readAll opens the hosted vectors of dir and reads each kind's nearest
// items and cosines for a query.
func readAll(dir string) (string, error) {
	v, err := Open(dir, counts)
	if err != nil {
		return "", err
	}
	defer v.Close()
	q, err := v.Query([]float32{0.3, 1, 0, 0.2})
	if err != nil {
		return "", err
	}
	var out strings.Builder
	for _, k := range []ext.Kind{ext.KindTool, ext.KindPrompt} {
		hits, err := v.Nearest(k, q, 3, nil)
		if err != nil {
			return "", err
		}
		cos, err := v.Cosines(k, q, []int{0})
		if err != nil {
			return "", err
		}
		fmt.Fprintln(&out, hits, cos)
	}
	return out.String(), nil
}
