package index

import (
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/catalog"
)

// TestWordVectorsBridgeWords: a query that shares no indexed word with a
// tool — not in its name, description, parameters, server or WordNet
// synonyms, so BM25 cannot retrieve it — still finds it, through the cosine
// of the word-vector means: the forecast tool for a question about sun
// and storms. (BM25 alone returns book_hotel only, for "visit"; the tools
// that neither share a word nor mean anything like it stay out.)
func TestWordVectorsBridgeWords(t *testing.T) {
	const catalogDir, query, want = "testdata/errands", "will it be sunny or stormy on Saturday when we visit", "errands__get_forecast"
	cat, err := catalog.LoadDir(catalogDir, nil)
	if err != nil {
		t.Fatal(err)
	}
	i := slices.IndexFunc(cat.Items, func(it catalog.Item) bool { return it.Name == want })
	if i < 0 {
		t.Fatalf("no %s in %s", want, catalogDir)
	}
	it := &cat.Items[i]
	indexed := map[string]bool{}
	texts := []string{it.Label, it.Title, it.Description, it.URI, it.MimeType, relatedWords(it), it.Server, strings.Join(SplitName(it.Label), " ")}
	for _, p := range it.Params {
		texts = append(texts, p.Name, p.Description)
	}
	for _, text := range texts {
		for _, term := range analyze(text) {
			indexed[term] = true
		}
	}
	for _, term := range analyze(query) {
		if indexed[term] {
			t.Fatalf("%q shares %q with %s: not a test of bridging", query, term, want)
		}
	}
	got := names(searchHits(t, mustBuild(t, catalogDir), ext.KindTool, query, 5, ext.Filter{}))
	if strings.Join(got, " ") != "errands__book_hotel "+want {
		t.Errorf("%q: got %v, want errands__book_hotel (shares visit) and %s", query, got, want)
	}
}

// TestWordVectorTable: the embedded table finds its words, weighs frequent
// words less, and puts related words near each other.
func TestWordVectorTable(t *testing.T) {
	for _, w := range []string{"the", "weather", "refund", "cluster", "screenshot"} {
		if wv.find(w) < 0 {
			t.Errorf("%q is not in the table", w)
		}
	}
	if wv.find("zzzqqq") >= 0 || wv.find("") >= 0 {
		t.Error("the table finds words it does not hold")
	}
	if a, b := wv.weight(wv.find("the")), wv.weight(wv.find("refund")); a >= b {
		t.Errorf("SIF weight of the (%.3f) is not below refund's (%.3f)", a, b)
	}
	vec := func(text string) []float64 {
		v := make([]float64, wv.dims)
		wv.addText(v, text, 1)
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

// TestDenseListsApproximate: a kind of more than minScan items is split
// into lists, and the scan of the nearest lists still finds the item of
// best cosine, as an exact scan does.
func TestDenseListsApproximate(t *testing.T) {
	n := 3 * minScan
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
	x := mustBuild(t, writeCatalog(t, map[string]string{"big.json": b.String()}))
	kl := x.vectors.kinds[ext.KindTool]
	if len(kl.centroids) < 2 {
		t.Fatalf("%d items in %d list", n, len(kl.centroids))
	}
	q := x.vectors.queryVector("flight recipe garden")
	hits, err := x.vectors.nearest(ext.KindTool, q, 5)
	if err != nil {
		t.Fatal(err)
	}
	all := make([]int, n)
	for i := range all {
		all[i] = i
	}
	exact, err := x.vectors.cosines(ext.KindTool, q, all)
	if err != nil {
		t.Fatal(err)
	}
	best := slices.Max(exact)
	if len(hits) != 5 || hits[0].cosine != best || exact[hits[0].ord] != best {
		t.Errorf("nearest: %v, want the best cosine %v first", hits, best)
	}
}

// TestDensePagesAgree: items that join the window by their cosine rank the
// same on every page, however many BM25 candidates the page asked for.
func TestDensePagesAgree(t *testing.T) {
	x := defaultIndex(t)
	ctx := context.Background()
	for _, q := range []string{"take a screenshot of the page", "create a calendar event", "write notes about the meeting"} {
		whole, err := x.Search(ctx, ext.Query{Kind: ext.KindTool, Text: q, Limit: 40})
		if err != nil {
			t.Fatal(err)
		}
		var paged [][]byte
		for off := 0; off < 40; off += 4 {
			page, err := x.Search(ctx, ext.Query{Kind: ext.KindTool, Text: q, Offset: off, Limit: 4})
			if err != nil {
				t.Fatal(err)
			}
			for _, h := range page.Items {
				paged = append(paged, h.Object)
			}
		}
		if len(paged) != len(whole.Items) {
			t.Fatalf("%q: %d items in pages of 4, %d in one page", q, len(paged), len(whole.Items))
		}
		for i := range paged {
			if string(paged[i]) != string(whole.Items[i].Object) {
				t.Errorf("%q: item %d differs between pages of 4 and one page of 40", q, i)
				break
			}
		}
	}
}

// TestClusterWithoutVectors: a large kind none of whose items has a word
// with a vector (all in a script the table lacks) is one list.
func TestClusterWithoutVectors(t *testing.T) {
	centroids, lists := cluster(make([][]float32, 3*minScan), wordDims)
	if len(centroids) != 1 || len(lists) != 1 || len(lists[0]) != 3*minScan {
		t.Errorf("got %d centroids, lists %d", len(centroids), len(lists))
	}
}
