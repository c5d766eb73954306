package vectors

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/catalog"
	"github.com/mcpsearch/mcpsearch/index/internal/rank"
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

// TestDenseListsApproximate: a kind of more than rank.MinScan items is
// split into lists, and the scan of the nearest lists still finds the item
// of best cosine, as an exact scan does.
func TestDenseListsApproximate(t *testing.T) {
	n := 3 * rank.MinScan
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
	centroids, lists := cluster(make([][]float32, 3*rank.MinScan), text.WordDims)
	if len(centroids) != 1 || len(lists) != 1 || len(lists[0]) != 3*rank.MinScan {
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
