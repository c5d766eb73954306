package index

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/embed/embedtest"
	"github.com/mcpsearch/mcpsearch/ext/server"
	"github.com/mcpsearch/mcpsearch/index/internal/hosted"
	"github.com/mcpsearch/mcpsearch/index/internal/requests"
	"github.com/mcpsearch/mcpsearch/index/internal/store"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
	"github.com/mcpsearch/mcpsearch/index/internal/vectors"
)

// flipOffsets are the offsets of a file of size bytes whose byte a damage
// test flips: its head, its middle and its end.
func flipOffsets(size int64) []int64 {
	var out []int64
	for _, at := range []int64{0, 9, 40, size / 4, size / 2, size * 3 / 4, size - 9, size - 5, size - 1} {
		if at >= 0 && at < size && (len(out) == 0 || at > out[len(out)-1]) {
			out = append(out, at)
		}
	}
	return out
}

// manifestOffsets are offsets of the manifest of the bundle at dir that
// name its versions and figures: the first digit of each of these values,
// beside the offsets of its head, middle and end.
func manifestOffsets(t *testing.T, dir string) []int64 {
	data, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		t.Fatal(err)
	}
	out := flipOffsets(int64(len(data)))
	for _, key := range []string{`"format": `, `"indexVersion": "`, `"build": "`, `"tool": `, `"t_description": `, `"cursorKey": "`, `"size": `} {
		at := bytes.Index(data, []byte(key))
		if at < 0 {
			t.Fatalf("the manifest has no %s", key)
		}
		out = append(out, int64(at+len(key)))
	}
	return out
}

// TestDamagedBundleNeverAnswersOtherwise flips one bit of one byte of a
// bundle at a time (every file the manifest lists and the manifest itself;
// of each its head, middle and end; of the manifest its versions and
// figures too): Open refuses the damaged bundle, or every answer — the
// searches of each kind, explained, with the word vectors and then the
// hosted model's, the lists, lookups, the directory and the description —
// is an error or the sound bundle's answer. A damaged bundle never answers
// otherwise without an error. (Before the checksums of format 16, a flip
// in the record stores, the vectors, the requests or the manifest changed
// answers silently.) The one exception is bleve's segment, which no check
// at open or at read covers (see "Catalogs and bundles" in the README):
// what a flip there changes is logged, and Verify must find it.
func TestDamagedBundleNeverAnswersOtherwise(t *testing.T) {
	t.Parallel()
	srv := embedtest.New(t, hostedDims)
	pristine := buildHosted(t, teamCatalog(t), srv)
	want := bundleAnswers(t, pristine, srv)
	m, err := Verify(pristine)
	if err != nil {
		t.Fatal(err)
	}
	files := map[string][]int64{ManifestFile: manifestOffsets(t, pristine)}
	for _, f := range m.Files {
		files[f.Path] = flipOffsets(f.Size)
	}
	for _, name := range []string{hosted.File, vectors.File, requests.File, store.DocOrderFile, "objects.bin", "meta.bin", ServersFile} {
		if files[name] == nil {
			t.Fatalf("the bundle has no %s", name)
		}
	}
	for path, offsets := range files {
		var refused, failed, changed int
		for _, at := range offsets {
			dir := copyBundle(t, pristine)
			flipBit(t, filepath.Join(dir, filepath.FromSlash(path)), at)
			got, err := damagedAnswers(t, dir, srv)
			if err != nil {
				refused++
				continue
			}
			for i := range want {
				switch {
				case got[i].err != "":
					failed++
				case got[i].text == want[i].text:
				case isSegment(path):
					changed++
					if _, err := Verify(dir); err == nil || !strings.Contains(err.Error(), path) {
						t.Errorf("%s, byte %d flipped: Verify: %v, want the file's hash mismatch", path, at, err)
					}
				default:
					t.Errorf("%s, byte %d flipped: %s answered otherwise, without an error:\n%s\nwant\n%s", path, at, want[i].what, got[i].text, want[i].text)
				}
			}
		}
		t.Logf("%s: of %d flips, %d refused at open; %d answers failed, %d changed (Verify finds them)", path, len(offsets), refused, failed, changed)
	}
}

// isSegment reports whether path (a slash path in a bundle) is one of
// bleve's segments.
func isSegment(path string) bool { return strings.HasSuffix(path, ".zap") }

// flipBit flips the lowest bit of the byte at offset at of the file at path.
func flipBit(t *testing.T, path string, at int64) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	data[at] ^= 1
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// answer is what one call answered: its text, or its error.
type answer struct{ what, text, err string }

// bundleAnswers opens the sound bundle at dir and returns its answers.
func bundleAnswers(t *testing.T, dir string, srv *embedtest.Server) []answer {
	t.Helper()
	got, err := damagedAnswers(t, dir, srv)
	if err != nil {
		t.Fatal(err)
	}
	for _, a := range got {
		if a.err != "" {
			t.Fatalf("the sound bundle: %s: %s", a.what, a.err)
		}
	}
	return got
}

// damagedAnswers opens the bundle at dir (an error when Open refuses it)
// and asks it everything: each kind's searches, with the word vectors and
// then with srv's hosted vectors, each kind's list, lookups, the directory
// and the description.
func damagedAnswers(t *testing.T, dir string, srv *embedtest.Server) ([]answer, error) {
	t.Helper()
	x, err := openNoPanic(t, dir)
	if err != nil {
		return nil, err
	}
	defer x.Close()
	ctx := context.Background()
	var out []answer
	ask := func(what string, call func() (any, error)) {
		var v any
		noPanic(t, what, func() { v, err = call() })
		if err != nil {
			out = append(out, answer{what: what, err: err.Error()})
			return
		}
		data, _ := json.Marshal(v)
		out = append(out, answer{what: what, text: string(data)})
	}
	search := func(vectors string) {
		for _, k := range ext.Kinds {
			for _, text := range []string{"weather forecast for a city", "create a note", "close the books for the month", "search", "notes"} {
				q := ext.Query{Kind: k, Text: text, Limit: ext.MaxLimit, Explain: true}
				ask(fmt.Sprintf("%s search %q (%s)", k, text, vectors), func() (any, error) { return x.Search(ctx, q) })
			}
		}
	}
	search("word vectors")
	for _, k := range ext.Kinds {
		ask(fmt.Sprintf("%s list", k), func() (any, error) { return x.List(ctx, k, 0, ext.MaxLimit) })
	}
	for _, name := range []string{"notes__create_note", "weather__get_forecast", "acme__run_recon"} {
		ask("resolve "+name, func() (any, error) { return x.Resolve(ctx, ext.KindTool, name) })
	}
	ask("directory", func() (any, error) { return x.Directory(ctx) })
	ask("describe", func() (any, error) { return x.Describe() })
	if err := x.UseHosted(HostedOptions{Embed: hostedClient(t, srv).EmbedQuery, Timeout: patientHosted, CacheSize: -1}); err != nil {
		t.Fatal(err)
	}
	search("hosted vectors")
	return out, nil
}

// TestDamageFoundWhenReadIsAnInternalError: a damaged part that Open does
// not read (a list of item vectors, a chunk of the written requests'
// texts, a block of the objects) fails the first search that reads it
// with -32603 over the protocol, and the log line of the request names the
// damaged file and part.
func TestDamageFoundWhenReadIsAnInternalError(t *testing.T) {
	t.Parallel()
	pristine := filepath.Join(t.TempDir(), "bundle")
	m, err := BuildDir(teamCatalog(t), pristine, nil)
	if err != nil {
		t.Fatal(err)
	}
	items := 0
	for _, n := range m.Counts {
		items += n
	}
	for _, c := range []struct {
		file, part, query string
		at                func(size int64) int64
	}{
		// the tools' only list: its rows come first, the rows last
		{vectors.File, "list 0", "weather forecast for a city", func(size int64) int64 { return size - int64(items*(8+text.WordDims)) + 20 }},
		// the last byte of the last request's text, which the no-match
		// test reads to compare it with the query it fits (the items
		// without written requests have their own text as requests: the
		// chunk's last request depends on the catalog's text)
		{requests.File, fmt.Sprintf("the texts of requests 0 to %d", requestCount(t, pristine, items)-1), "make sure the finance numbers add up", func(size int64) int64 { return size - 1 }},
		// every object of this catalog is in block 0
		{"objects.bin", "block 0", "create a note", func(int64) int64 { return 8 }},
	} {
		t.Run(c.file, func(t *testing.T) {
			dir := copyBundle(t, pristine)
			path := filepath.Join(dir, c.file)
			st, err := os.Stat(path)
			if err != nil {
				t.Fatal(err)
			}
			flipBit(t, path, c.at(st.Size()))
			x, err := Open(dir)
			if err != nil {
				t.Fatalf("Open: %v, want the damage found when read", err)
			}
			defer x.Close()
			var log bytes.Buffer
			s := server.New(x, &server.Options{Logger: slog.New(slog.NewTextHandler(&log, nil))})
			body := fmt.Sprintf(`{"jsonrpc":"2.0","id":7,"method":"tools/search","params":{"query":%q}}`, c.query)
			req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
			req.Header.Set("Content-Type", "application/json")
			rec := httptest.NewRecorder()
			s.ServeHTTP(rec, req)
			if out := rec.Body.String(); !strings.Contains(out, `"code":-32603`) || !strings.Contains(out, `"id":7`) {
				t.Errorf("got %s, want -32603 for request 7", out)
			}
			if named := c.file + ": " + c.part + " does not have the checksum"; !strings.Contains(log.String(), named) {
				t.Errorf("logged %q, want it to say %q", log.String(), named)
			}
		})
	}
}

// requestCount is the number of requests of the bundle at dir (written,
// and the items' own text), which holds items items.
func requestCount(t *testing.T, dir string, items int) int {
	t.Helper()
	x, err := requests.Open(dir, items)
	if err != nil {
		t.Fatal(err)
	}
	defer x.Close()
	n := 0
	for _, k := range ext.Kinds {
		n += x.Count(k)
	}
	return n
}
