package index

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/embed"
	"github.com/mcpsearch/mcpsearch/ext/embed/embedtest"
	"github.com/mcpsearch/mcpsearch/index/internal/hosted"
)

// hostedTexts are queries of the test catalog: the first one's ranking
// changes with the hosted vectors (TestHostedChangesRanking).
var hostedTexts = []string{"search notes by keyword", "find notes", "weather for a city", "remove note", "get"}

// wordsIndex is the test catalog's bundle built without hosted vectors:
// today's ranking.
func wordsIndex(t *testing.T) *Index {
	return mustBuild(t, "testdata/catalog")
}

// TestHostedBuildWritesVectors: a build with an embeddings endpoint
// embeds every item once and writes hosted.bin, which records the model
// and its dimensions and never the key.
func TestHostedBuildWritesVectors(t *testing.T) {
	srv := embedtest.New(t, hostedDims)
	srv.APIKey = "sk-never-in-the-bundle-0123456789"
	dir := buildHosted(t, "testdata/catalog", srv)
	x := openHosted(t, dir, nil, 0, nil)
	m, ok := x.HostedModel()
	want := HostedModel{Backend: "openai", Name: "hashed-words", Endpoint: srv.URL + "/v1", Dims: hostedDims}
	if !ok || m != want {
		t.Errorf("got model %+v, %v; want %+v", m, ok, want)
	}
	if n := int(srv.Texts.Load()); n != x.docCount() {
		t.Errorf("%d texts embedded, want the %d items", n, x.docCount())
	}
	if !slices.ContainsFunc(x.Manifest().Files, func(f FileInfo) bool { return f.Path == hosted.File }) {
		t.Errorf("the manifest lists no %s", hosted.File)
	}
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			if b, _ := os.ReadFile(path); bytes.Contains(b, []byte(srv.APIKey)) {
				t.Errorf("%s holds the API key", path)
			}
		}
		return err
	})
}

// TestHostedBedrockBuild: Bedrock's Titan embeddings, SigV4-signed, make
// the same bundle file.
func TestHostedBedrockBuild(t *testing.T) {
	srv := embedtest.New(t, hostedDims)
	c, err := embed.New(embed.Options{Backend: embed.Bedrock, Endpoint: srv.URL, Region: srv.Region, Model: "amazon.titan-embed-text-v2:0",
		Dims: hostedDims, Credentials: func(context.Context) (aws.Credentials, error) { return srv.Creds, nil }})
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "bundle")
	if _, err := BuildDir("testdata/catalog", dir, &BuildOptions{Hosted: &HostedItems{Model: HostedModel(c.Model()), Embed: c.EmbedItems}}); err != nil {
		t.Fatal(err)
	}
	x := openHosted(t, dir, nil, 0, nil)
	if m, _ := x.HostedModel(); m.Backend != "bedrock" || m.Region != srv.Region || m.Dims != hostedDims {
		t.Errorf("got model %+v, want Bedrock's in %s", m, srv.Region)
	}
}

// TestHostedBuildRefusesBadAnswers: an endpoint that answers other
// dimensions, garbage or a refusal fails the build with an error saying
// so, and leaves no bundle (nor a build folder) behind.
func TestHostedBuildRefusesBadAnswers(t *testing.T) {
	srv := embedtest.New(t, hostedDims)
	for _, test := range []struct {
		faults embedtest.Faults
		want   string
	}{
		{embedtest.Faults{Dims: 8}, "8 dimensions: 64 were asked for"},
		{embedtest.Faults{Body: `{"data": "no"}`}, "not an embeddings list"},
		{embedtest.Faults{Status: 404}, "check the endpoint URL and the model name"},
	} {
		srv.Set(test.faults)
		parent := t.TempDir()
		c := hostedClient(t, srv)
		_, err := BuildDir("testdata/catalog", filepath.Join(parent, "bundle"), &BuildOptions{Hosted: &HostedItems{Model: HostedModel(c.Model()), Embed: c.EmbedItems}})
		if err == nil || !strings.Contains(err.Error(), test.want) || !strings.Contains(err.Error(), "embedding the items") {
			t.Errorf("%+v: got %v, want an error saying %q", test.faults, err, test.want)
		}
		if left, _ := os.ReadDir(parent); len(left) != 0 {
			t.Errorf("%+v: the failed build left %v", test.faults, left)
		}
	}
}

// TestHostedChangesRanking: with the hosted vectors the hosted cosine
// takes the word vectors' place, and the ranking follows the hosted
// model (here a bag of words, so items sharing the query's words rise);
// the explanation says which vectors served.
func TestHostedChangesRanking(t *testing.T) {
	srv := embedtest.New(t, hostedDims)
	x := openHosted(t, buildHosted(t, "testdata/catalog", srv), srv, patientHosted, nil)
	words := wordsIndex(t)
	q := hostedTexts[0]
	got, was := rankedPage(t, x, q), rankedPage(t, words, q)
	if slices.Equal(pageNames(got), pageNames(was)) {
		t.Errorf("%q: the hosted ranking %v is the word vectors' %v", q, got, was)
	}
	if e := explainFirst(t, x, q); e.Vectors != "hosted openai hashed-words (64 dimensions)" || !strings.Contains(e.Summary, "hosted-model similarity") {
		t.Errorf("explanation says vectors %q, summary %q; want the hosted model", e.Vectors, e.Summary)
	}
	if s := x.HostedStats(); s.Hosted != 2 || s.Timeouts+s.Errors+s.Unwired != 0 {
		t.Errorf("stats %+v, want 2 hosted queries and no fallback", s)
	}
}

// TestHostedFallsBack: with no answer in time, a failing endpoint, an
// answer of other dimensions or garbage, or no embedder configured, the
// ranking is the word vectors' — the very pages a bundle without hosted
// vectors gives —, the explanation says why, the fallback is counted and
// told, and the caller gets no error.
func TestHostedFallsBack(t *testing.T) {
	srv := embedtest.New(t, hostedDims)
	dir := buildHosted(t, "testdata/catalog", srv)
	words := wordsIndex(t)
	for _, test := range []struct {
		name   string
		faults embedtest.Faults
		wired  bool
		reason string
		note   string
	}{
		{"timeout", embedtest.Faults{Delay: 300 * time.Millisecond}, true, "timeout", "no answer within 30ms"},
		{"server error", embedtest.Faults{Status: 500}, true, "error", "the endpoint failed"},
		{"wrong dims", embedtest.Faults{Dims: 8}, true, "error", "the endpoint failed"},
		{"garbage", embedtest.Faults{Body: "<html>"}, true, "error", "the endpoint failed"},
		{"not configured", embedtest.Faults{}, false, "", "the server embeds no queries"},
	} {
		srv.Set(test.faults)
		var told []string
		// only the timeout waits 30ms: under load an error's answer may
		// take longer than that, and would be told as a timeout
		timeout := patientHosted
		if test.reason == "timeout" {
			timeout = 30 * time.Millisecond
		}
		x := openHosted(t, dir, map[bool]*embedtest.Server{true: srv}[test.wired], timeout, &told)
		for _, q := range hostedTexts {
			if got, want := rankedPage(t, x, q), rankedPage(t, words, q); !slices.Equal(got, want) {
				t.Errorf("%s: %q ranked %v, want the word vectors' %v", test.name, q, got, want)
			}
		}
		if e := explainFirst(t, x, hostedTexts[0]); !strings.HasPrefix(e.Vectors, "word vectors") || !strings.Contains(e.Vectors, test.note) {
			t.Errorf("%s: explanation says vectors %q, want the word vectors and %q", test.name, e.Vectors, test.note)
		}
		n := uint64(len(hostedTexts) + 1)
		s := x.HostedStats()
		if got := map[string]uint64{"timeout": s.Timeouts, "error": s.Errors, "": s.Unwired}[test.reason]; got != n || s.Hosted != 0 {
			t.Errorf("%s: stats %+v, want %d fallbacks counted as %q", test.name, s, n, test.reason)
		}
		if test.wired && (len(told) != int(n) || told[0] != test.reason) {
			t.Errorf("%s: OnFallback told %v, want %d × %q", test.name, told, n, test.reason)
		}
	}
}

// TestHostedQueryCache: a repeated query is embedded once.
func TestHostedQueryCache(t *testing.T) {
	srv := embedtest.New(t, hostedDims)
	x, err := Open(buildHosted(t, "testdata/catalog", srv))
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if err := x.UseHosted(HostedOptions{Embed: hostedClient(t, srv).EmbedQuery, Timeout: patientHosted, CacheSize: 2}); err != nil {
		t.Fatal(err)
	}
	before := srv.Calls.Load()
	for range 3 {
		rankedPage(t, x, "find notes")
	}
	if calls := srv.Calls.Load() - before; calls != 1 {
		t.Errorf("3 equal queries made %d calls, want 1", calls)
	}
	if s := x.HostedStats(); s.Hosted != 3 || s.Cached != 2 {
		t.Errorf("stats %+v, want 3 hosted of which 2 cached", s)
	}
	for _, q := range []string{"remove note", "get", "list"} {
		rankedPage(t, x, q)
	}
	if n := x.hosted.use.Load().cache.Len(); n != 2 {
		t.Errorf("the cache holds %d vectors, want its size 2", n)
	}
}

// TestHostedLongestQuery: the longest query a caller may send costs one
// call whose body is bounded.
func TestHostedLongestQuery(t *testing.T) {
	srv := embedtest.New(t, hostedDims)
	x := openHosted(t, buildHosted(t, "testdata/catalog", srv), srv, patientHosted, nil)
	long := strings.Repeat("<note> ", ext.MaxQueryBytes/7)
	before := srv.Calls.Load()
	rankedPage(t, x, long)
	if calls := srv.Calls.Load() - before; calls != 1 {
		t.Errorf("%d calls, want 1", calls)
	}
	if b := srv.MaxBody.Load(); b > 6*embed.MaxTextBytes+256 {
		t.Errorf("the query's call sent %d bytes, want at most %d", b, 6*embed.MaxTextBytes+256)
	}
}

// TestHostedConcurrentSearches: searches embed their queries at once,
// through the cache, safely (go test -race), each ranked as alone.
func TestHostedConcurrentSearches(t *testing.T) {
	srv := embedtest.New(t, hostedDims)
	dir := buildHosted(t, "testdata/catalog", srv)
	alone := openHosted(t, dir, srv, patientHosted, nil)
	x, err := Open(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	if err := x.UseHosted(HostedOptions{Embed: hostedClient(t, srv).EmbedQuery, Timeout: patientHosted, CacheSize: 3}); err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{}
	for _, q := range hostedTexts {
		want[q] = rankedPage(t, alone, q)
	}
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			q := hostedTexts[i%len(hostedTexts)]
			if got := rankedPage(t, x, q); !slices.Equal(got, want[q]) {
				t.Errorf("%q ranked %v at once with others, %v alone", q, got, want[q])
			}
		})
	}
	wg.Wait()
}

// pageNames are the names of a rankedPage.
func pageNames(page []string) []string {
	var out []string
	for _, line := range page[1:] {
		out = append(out, strings.Fields(line)[0])
	}
	return out
}

// explanation is what TestHosted* read of an explanation.
type explanation struct {
	Summary string `json:"summary"`
	Vectors string `json:"vectors"`
}

// explainFirst is the explanation of the first tool found for text.
func explainFirst(t *testing.T, x *Index, text string) explanation {
	t.Helper()
	page, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: text, Limit: 1, Explain: true})
	if err != nil || len(page.Items) == 0 {
		t.Fatalf("%q: %v, %d items", text, err, len(page.Items))
	}
	b, _ := json.Marshal(page.Items[0].Explain)
	var e explanation
	json.Unmarshal(b, &e)
	return e
}

// TestHostedSeesOnlyWhatTheCallerSees: the hosted vectors bring in items
// that share no word with the query (dense candidates), but never one the
// caller may not see: a caller outside the group of a server whose item is
// the query's nearest by hosted vector gets none of that server's items,
// while a caller in the group gets it.
func TestHostedSeesOnlyWhatTheCallerSees(t *testing.T) {
	dir := writeCatalog(t, map[string]string{
		"secret.json": `{"server":"secret","visibility":{"groups":["ops"]},"tools":[{"name":"rotate_keys","description":"Rotate the signing keys of the vault","inputSchema":{"type":"object"}}]}`,
		"open.json":   `{"server":"open","tools":[{"name":"weather","description":"Show the weather forecast for a city","inputSchema":{"type":"object"}},{"name":"send_mail","description":"Send a mail message","inputSchema":{"type":"object"}}]}`,
	})
	srv := embedtest.New(t, hostedDims)
	x := openHosted(t, buildHosted(t, dir, srv), srv, patientHosted, nil)
	search := func(groups ...string) []string {
		t.Helper()
		ctx := ext.WithAccess(context.Background(), ext.Access{Groups: groups})
		return hitNames(t, mustSearch(t, x, ctx, ext.Query{Kind: ext.KindTool, Text: "rotate the signing keys of the vault and mail them", Limit: 10}))
	}
	if got := search("ops"); !slices.Contains(got, "secret__rotate_keys") && !slices.Contains(got, "rotate_keys") {
		t.Fatalf("a caller in ops got %v; want the secret server's tool (else the test proves nothing)", got)
	}
	for _, name := range search("dev") {
		if strings.Contains(name, "rotate_keys") {
			t.Errorf("a caller outside ops got %q", name)
		}
	}
	if s := x.HostedStats(); s.Hosted == 0 {
		t.Errorf("stats %+v: the searches did not use the hosted vectors", s)
	}
}

// TestHostedCacheByAccess: a query's cached vector serves callers of the
// same access only: a caller of other groups searching the same text
// calls the endpoint again, so the speed of its answer does not tell it
// that someone else searched that text.
func TestHostedCacheByAccess(t *testing.T) {
	srv := embedtest.New(t, hostedDims)
	x := openHosted(t, buildHosted(t, "testdata/catalog", srv), srv, patientHosted, nil)
	if err := x.UseHosted(HostedOptions{Embed: hostedClient(t, srv).EmbedQuery, Timeout: patientHosted}); err != nil {
		t.Fatal(err)
	}
	q := ext.Query{Kind: ext.KindTool, Text: "find notes", Limit: 3}
	before := srv.Calls.Load()
	for _, groups := range [][]string{{"ops"}, {"ops"}, {"dev"}, {"ops", "dev"}, nil} {
		mustSearch(t, x, ext.WithAccess(context.Background(), ext.Access{Groups: groups}), q)
	}
	if calls := srv.Calls.Load() - before; calls != 4 {
		t.Errorf("5 searches by 4 accesses made %d calls, want 4 (one a cache hit)", calls)
	}
	if s := x.HostedStats(); s.Cached != 1 {
		t.Errorf("stats %+v, want 1 cached", s)
	}
	if cacheKey("m", ext.Access{Groups: []string{"a\x01b"}}, "t") == cacheKey("m", ext.Access{Groups: []string{"a", "b"}}, "t") {
		t.Error("two accesses share a cache key")
	}
}
