package eval

import (
	"path/filepath"
	"strings"
	"testing"
)

// TestBroadSplits: broad's halves were fixed before any measurement,
// alternately in the order of (English or not, first gold server) for the
// requests and (kind, English or not) for the negatives, so each half
// holds as many of each as the other, to one.
func TestBroadSplits(t *testing.T) {
	for path, stratum := range map[string]func(Query) string{
		broadPath:    func(q Query) string { return "english " + fmtBool(q.Lang == "en") },
		broadNegPath: func(q Query) string { return "kind " + q.Kind },
	} {
		counts := map[string]map[string]int{}
		for _, q := range loadSet(t, path) {
			if *q.Split != "dev" && *q.Split != "test" {
				t.Fatalf("%s: %s has split %q, want dev or test", path, q.QID, *q.Split)
			}
			for _, s := range []string{"all", stratum(q)} {
				if counts[s] == nil {
					counts[s] = map[string]int{}
				}
				counts[s][*q.Split]++
			}
		}
		if len(counts) < 3 {
			t.Errorf("%s: strata %v, want all and at least two more", path, counts)
		}
		for s, c := range counts {
			if d := c["dev"] - c["test"]; d > 1 || d < -1 {
				t.Errorf("%s: %s: %d dev, %d test", path, s, c["dev"], c["test"])
			}
		}
	}
}

func fmtBool(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// TestBroadShares: a quarter of broad's requests, and of its negatives,
// are in other languages than English; its negatives hold errands, near
// misses that name what the catalog lacks, and long chat messages.
func TestBroadShares(t *testing.T) {
	for _, path := range []string{broadPath, broadNegPath} {
		qs := loadSet(t, path)
		other := 0
		for _, q := range qs {
			if q.Lang != "en" {
				other++
			}
		}
		if share := float64(other) / float64(len(qs)); share < 0.2 || share > 0.35 {
			t.Errorf("%s: %.2f of the requests in other languages, want about a quarter", path, share)
		}
	}
	kinds := map[string]int{}
	for _, q := range loadSet(t, broadNegPath) {
		kinds[q.Kind]++
		if q.Kind == "near-miss" && (q.Missing == "" || !strings.Contains(strings.ToLower(q.Query), strings.ToLower(q.Missing))) {
			t.Errorf("%s: near miss %s: missing %q is not a word of its text", broadNegPath, q.QID, q.Missing)
		}
	}
	if kinds["errand"] < 80 || kinds["near-miss"] < 50 || kinds["long-chat"] < 40 || len(kinds) != 3 {
		t.Errorf("%s: kinds %v, want errands, near misses and long chat messages", broadNegPath, kinds)
	}
}

// TestBroadDisjoint: no line of broad shares a qid or a text (case and
// spacing aside) with a line of any other set in testdata, nor with each
// other.
func TestBroadDisjoint(t *testing.T) {
	norm := func(s string) string { return strings.ToLower(strings.Join(strings.Fields(s), " ")) }
	others, err := filepath.Glob("testdata/*/queries.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	others = append(others, "testdata/negatives.jsonl", offCatalog2Path)
	where := map[string]string{}
	for _, path := range others {
		if filepath.ToSlash(path) == broadPath {
			continue
		}
		for _, q := range loadSet(t, path) {
			where["qid "+q.QID] = path
			where["text "+norm(q.Query)] = path
		}
	}
	if len(where) < 1000 {
		t.Fatalf("%d lines of other sets: too few to compare with", len(where)/2)
	}
	for _, path := range []string{broadPath, broadNegPath} {
		for _, q := range loadSet(t, path) {
			for _, key := range []string{"qid " + q.QID, "text " + norm(q.Query)} {
				if other, dup := where[key]; dup {
					t.Errorf("%s: %s is also in %s", path, key, other)
				}
				where[key] = path
			}
		}
	}
}
