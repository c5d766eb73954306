package vectors

import (
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/index/internal/checksum"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// TestWordVectorTable: the embedded table finds its words, weighs frequent
// words less, and puts related words near each other.
func TestWordVectorTable(t *testing.T) {
	wv, err := text.WordTable()
	if err != nil {
		t.Fatal(err)
	}
	for _, w := range []string{"the", "weather", "refund", "cluster", "screenshot"} {
		if wv.Find(w) < 0 {
			t.Errorf("%q is not in the table", w)
		}
	}
	if wv.Find("zzzqqq") >= 0 || wv.Find("") >= 0 {
		t.Error("the table finds words it does not hold")
	}
	if a, b := weight(wv, wv.Find("the")), weight(wv, wv.Find("refund")); a >= b {
		t.Errorf("SIF weight of the (%.3f) is not below refund's (%.3f)", a, b)
	}
	vec := func(s string) []float64 {
		v := make([]float64, text.WordDims)
		addText(wv, v, s, 1)
		normalise(v)
		return v
	}
	cos := func(a, b []float64) (s float64) {
		for i := range a {
			s += a[i] * b[i]
		}
		return s
	}
	money, refund, kube := vec("money back"), vec("refund"), vec("container cluster")
	if cos(money, refund) <= cos(money, kube) {
		t.Errorf("money back is no nearer refund (%.2f) than container cluster (%.2f)", cos(money, refund), cos(money, kube))
	}
}

// TestDenseListsApproximate: a kind of more than MinScan items is
// split into lists, and the scan of the nearest lists still finds the item
// of best cosine, as an exact scan does.
func TestDenseListsApproximate(t *testing.T) {
	n := 3 * MinScan
	var b strings.Builder
	b.WriteString(`{"server": "big", "tools": [`)
	words := []string{"weather", "invoice", "cluster", "song", "flight", "recipe", "camera", "contract", "garden", "email", "database", "chart"}
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		w1, w2, w3 := words[i%len(words)], words[(i/len(words))%len(words)], words[(i/(len(words)*len(words)))%len(words)]
		b.WriteString(`{"name": "tool_` + strconv.Itoa(i) + `", "description": "` + w1 + " " + w2 + " " + w3 + `", "inputSchema": {"type": "object"}}`)
	}
	b.WriteString("]}")
	v := mustWrite(t, b.String())
	kl := v.kinds[ext.KindTool]
	if len(kl.centroids) < 2 {
		t.Fatalf("%d items in %d list", n, len(kl.centroids))
	}
	q := v.Query("flight recipe garden")
	hits, err := v.Nearest(ext.KindTool, q, 5, nil)
	if err != nil {
		t.Fatal(err)
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	exact, err := v.Cosines(ext.KindTool, q, all)
	if err != nil {
		t.Fatal(err)
	}
	best := slices.Max(exact)
	if len(hits) != 5 || hits[0].Cosine != best || exact[hits[0].Ord] != best {
		t.Errorf("nearest: %v, want the best cosine %v first", hits, best)
	}
}

// TestClusterWithoutVectors: a large kind none of whose items has a word
// with a vector (all in a script the table lacks) is one list.
func TestClusterWithoutVectors(t *testing.T) {
	centroids, lists := cluster(make([][]float32, 3*MinScan), text.WordDims)
	if len(centroids) != 1 || len(lists) != 1 || len(lists[0]) != 3*MinScan {
		t.Errorf("got %d centroids, lists %d", len(centroids), len(lists))
	}
}

// mustWrite writes and opens the vectors of the catalog of one server file.
func mustWrite(t *testing.T, file string) *Vectors {
	t.Helper()
	cat, err := catalog.LoadFS(fstest.MapFS{"s.json": {Data: []byte(file)}}, "cat", nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := Write(dir, cat.Items); err != nil {
		t.Fatal(err)
	}
	v, err := Open(dir, len(cat.Items))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { v.Close() })
	return v
}

func TestZipfH(t *testing.T) {
	if want := math.Log(341479) + 0.5772; zipfH != want {
		t.Errorf("zipfH = %v, want %v", zipfH, want)
	}
}

// TestDamagedVectorsAreAnError flips bytes across a vectors file of
// several lists (head, item rows, rows): Open refuses the file, or every
// read of the damaged part fails with a *checksum.Damage naming it;
// nothing reads back a changed cosine.
func TestDamagedVectorsAreAnError(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"server": "big", "tools": [`)
	words := []string{"weather", "invoice", "cluster", "song", "flight", "recipe", "camera", "contract"}
	for i := range 2 * MinScan {
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString(`{"name": "tool_` + strconv.Itoa(i) + `", "description": "` + words[i%8] + " " + words[(i/8)%8] + `", "inputSchema": {"type": "object"}}`)
	}
	b.WriteString(`], "prompts": [{"name": "p", "description": "write a song"}]}`)
	cat, err := catalog.LoadFS(fstest.MapFS{"s.json": {Data: []byte(b.String())}}, "cat", nil)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := Write(dir, cat.Items); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, File)
	sound, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	want, _ := readAll(dir, len(cat.Items))
	caught := 0
	for at := 0; at < len(sound); at += 101 {
		bad := slices.Clone(sound)
		bad[at] ^= 0x04
		if err := os.WriteFile(path, bad, 0o644); err != nil {
			t.Fatal(err)
		}
		got, err := readAll(dir, len(cat.Items))
		var damage *checksum.Damage
		switch {
		case errors.As(err, &damage):
			caught++
		case err != nil && strings.HasPrefix(err.Error(), File):
			caught++ // refused at open: its head's counts or bounds
		case err != nil:
			t.Errorf("byte %d: %v, want a damage naming %s", at, err, File)
		case got != want:
			t.Errorf("byte %d flipped: the vectors read back otherwise, without an error", at)
		}
	}
	t.Logf("%d of %d flips caught", caught, (len(sound)+100)/101)
}

// readAll opens the vectors file of dir, of n items, and reads every
// item's cosine with a query and each kind's nearest items.
func readAll(dir string, n int) (string, error) {
	v, err := Open(dir, n)
	if err != nil {
		return "", err
	}
	defer v.Close()
	var out strings.Builder
	for _, k := range []ext.Kind{ext.KindTool, ext.KindPrompt} {
		for _, text := range []string{"flight recipe", "song camera contract"} {
			q := v.Query(text)
			hits, err := v.Nearest(k, q, 10, nil)
			if err != nil {
				return "", err
			}
			var ords []int
			for ord := range v.kinds[k].starts[len(v.kinds[k].starts)-1] {
				ords = append(ords, ord)
			}
			cos, err := v.Cosines(k, q, ords)
			if err != nil {
				return "", err
			}
			fmt.Fprintln(&out, hits, cos)
		}
	}
	return out.String(), nil
}
