package eval

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"regexp"
	"runtime"
	"strings"
	"sync"
	"testing"
	"unicode"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// A tool that destroys is never first for a request that asks nothing
// destructive (issue 36): over every written request of the default
// catalog and every request of our sets, dev and test halves, answerable
// and off-catalog, the requests that ask nothing destructive whose first
// item destroys number zero. What destroys and what asks are this test's
// own word lists, not the product's: a request asks when one of its words
// begins with a stem of destroying or undoing, in the languages the sets
// are written in; a tool destroys when a word of its name does.

// testDestroyWords begin the words of a tool's name that destroy.
var testDestroyWords = []string{
	"delet", "remov", "eras", "destroy", "drop", "kill", "purg", "wipe", "terminat",
	"revok", "uninstall", "truncat", "teardown", "discard", "nuke",
}

// testAskWords begin the words of a request that ask to destroy or undo,
// in English and the languages of the sets.
var testAskWords = []string{
	"delet", "remov", "eras", "destroy", "drop", "kill", "purg", "wipe", "terminat", "revok",
	"uninstall", "truncat", "tear", "discard", "nuke", "cancel", "clear", "clean", "reset",
	"empty", "unsubscrib", "rid", "get rid", "scrap", "trash", "bin ", "undo", "spin down", "take down",
	"delte", "dlete", "remvoe", // the typos of the sets (typo correction reads them as the verb)
	"lösch", "entfern", "kündig", "storn", "borr", "elimin", "quit", "supprim", "effac", "annul",
	"apag", "exclu", "cancel", "cancell", "gelösch", "abbrech", "brich", "deshac", "deshaz", "desfa", "usuń", "verwijder", "удал", "삭제",
	"削除", "消", "取り消", "删除", "删", "取消", "移除", "清",
}

// allRequests asks TestNoDestroyerFirstUnasked for every written request
// of the default catalog (28k searches: minutes on a busy machine)
// rather than every requestStride-th.
var allRequests = flag.Bool("all-requests", false, "TestNoDestroyerFirstUnasked: search every written request of the default catalog, not every 8th")

// requestStride: by default every 8th written request of the default
// catalog is searched, each tool's first among them.
const requestStride = 8

func TestNoDestroyerFirstUnasked(t *testing.T) {
	t.Parallel()
	cat, err := catalog.LoadDir(defaultCatalog, nil)
	if err != nil {
		t.Fatal(err)
	}
	var reqs []Query
	for _, it := range cat.Items {
		if it.Kind != ext.KindTool {
			continue
		}
		for i, r := range it.Requests {
			if !*allRequests && i%requestStride != 0 {
				continue
			}
			reqs = append(reqs, Query{QID: fmt.Sprintf("%s#%d", it.Name, i), Query: r})
		}
	}
	for _, path := range []string{everydayPath, offCatalogPath, freshPath, broadPath, broadNegPath, offCatalog2Path} {
		reqs = append(reqs, loadSet(t, path)...)
	}
	set, err := BuildCatalog(defaultCatalog)
	if err != nil {
		t.Fatal(err)
	}
	defer set.Close()
	bad := destroyersFirst(t, set, reqs)
	for _, q := range bad {
		if q.Split != nil && *q.Split == "test" {
			t.Errorf("%s (a held-out request): a destroying tool first", q.QID)
		} else {
			t.Errorf("%s %q: a destroying tool first", q.QID, q.Query)
		}
	}
	t.Logf("%d requests, %d ask nothing destructive and get a destroying tool first", len(reqs), len(bad))
}

// destroyersFirst returns the requests of reqs that ask nothing
// destructive and whose first item destroys.
func destroyersFirst(t *testing.T, set *Set, reqs []Query) []Query {
	var (
		mu  sync.Mutex
		bad []Query
		wg  sync.WaitGroup
	)
	work := make(chan Query)
	for range runtime.GOMAXPROCS(0) {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for q := range work {
				if asksDestroyInTest(q.Query) {
					continue
				}
				r, err := set.Search(context.Background(), q, 1)
				if err != nil {
					t.Error(err)
					continue
				}
				if len(r.Ranked) > 0 && destroysInTest(r.Ranked[0]) {
					mu.Lock()
					bad = append(bad, q)
					mu.Unlock()
				}
			}
		}()
	}
	for _, q := range reqs {
		work <- q
	}
	close(work)
	wg.Wait()
	return bad
}

// destroysInTest reports whether the tool of a canonical id
// (server__name) destroys, by the words of its name.
func destroysInTest(id string) bool {
	_, name, _ := strings.Cut(id, "__")
	for _, w := range nameWordsInTest(name) {
		for _, p := range testDestroyWords {
			if strings.HasPrefix(w, p) && !strings.HasPrefix(w, "dropbox") {
				return true
			}
		}
	}
	return false
}

// nameWordsInTest splits a tool's name at what is not a letter and
// where a lower-case letter meets an upper-case one, in lower case.
func nameWordsInTest(name string) []string {
	spaced := camelBoundary.ReplaceAllString(name, "$1 $2")
	return strings.FieldsFunc(strings.ToLower(spaced), func(r rune) bool { return !unicode.IsLetter(r) })
}

var camelBoundary = regexp.MustCompile(`(\p{Ll})(\p{Lu})`)

// asksDestroyInTest reports whether a request asks to destroy or undo
// something: one of its words (or, in scripts without spaces, any part
// of it) begins with a word of testAskWords.
func asksDestroyInTest(request string) bool {
	low := strings.ToLower(request)
	for _, p := range testAskWords {
		if strings.HasPrefix(low, p) || strings.Contains(low, " "+p) || (!isASCIIWord(p) && strings.Contains(low, p)) {
			return true
		}
	}
	return false
}

func isASCIIWord(s string) bool {
	for _, r := range s {
		if r > unicode.MaxLatin1 {
			return false
		}
	}
	return true
}

// TestDestructiveAnnotationsAreNoGuide: what destroys is read from a
// tool's name, not from its destructiveHint annotation (the retrieval
// README, destroy-asked): most tools of the default catalog that are
// destructive by their annotations (the standard's default, true, where
// a tool sets none) and not read-only do not destroy by name, and most of
// those that set it explicitly do not either — servers annotate their
// creates and runs so —: a guard reading the annotation would keep a
// create back from a request to create.
func TestDestructiveAnnotationsAreNoGuide(t *testing.T) {
	t.Parallel()
	cat, err := catalog.LoadDir(defaultCatalog, nil)
	if err != nil {
		t.Fatal(err)
	}
	var effective, explicit [2]int // tools, and those of them destroying by name
	creates := false
	for _, it := range cat.Items {
		if it.Kind != ext.KindTool || it.Annotations["destructiveHint"] != true || it.Annotations["readOnlyHint"] == true {
			continue
		}
		var own struct {
			Annotations struct{ DestructiveHint *bool }
		}
		if err := json.Unmarshal(it.Object, &own); err != nil {
			t.Fatal(err)
		}
		set := own.Annotations.DestructiveHint != nil
		byName := 0
		if destroysInTest(it.Name) {
			byName = 1
		}
		effective[0], effective[1] = effective[0]+1, effective[1]+byName
		if set {
			explicit[0], explicit[1] = explicit[0]+1, explicit[1]+byName
		}
		creates = creates || set && it.Label == "create-specific-calendar-event"
	}
	for _, c := range [][2]int{effective, explicit} {
		if c[0] == 0 || 2*c[1] > c[0] {
			t.Errorf("%d tools destructive by their annotations, %d of them by name: want under half by name (else say what changed in the retrieval README)", c[0], c[1])
		}
	}
	if !creates {
		t.Error("ms-365's create-specific-calendar-event is not annotated destructive: say what changed in the retrieval README")
	}
	t.Logf("destructive and not read-only by their annotations: %d tools, %d of them destroy by name; annotated so explicitly: %d, %d by name", effective[0], effective[1], explicit[0], explicit[1])
}
