package index

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/server"
)

// damages alter a file's bytes without changing its size, which Open's
// size check cannot see (Verify's hashes can).
var damages = []struct {
	name string
	hurt func(data []byte)
}{
	{"zeroed middle", func(b []byte) { clear(b[len(b)/4 : len(b)*3/4]) }},
	{"inverted head", func(b []byte) { invert(b[:min(len(b), 64)]) }},
	{"inverted tail", func(b []byte) { invert(b[max(0, len(b)-64):]) }},
	{"all 0xff", func(b []byte) { invert(b); clear(b); invert(b) }},
}

func invert(b []byte) {
	for i := range b {
		b[i] ^= 0xff
	}
}

// TestCorruptBundleFilesNeverCrash damages each file of a bundle in turn,
// keeping its size: Open refuses the bundle, or every search, list and
// lookup either answers or fails with an error (-32603 over the protocol);
// nothing panics. (Before guard.go, damaged zap and bolt files panicked in
// Open and in Search.)
func TestCorruptBundleFilesNeverCrash(t *testing.T) {
	t.Parallel()
	pristine := filepath.Join(t.TempDir(), "bundle")
	m, err := BuildDir("testdata/catalog", pristine, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range m.Files {
		for _, d := range damages {
			t.Run(f.Path+"/"+d.name, func(t *testing.T) {
				dir := copyBundle(t, pristine)
				path := filepath.Join(dir, f.Path)
				data, err := os.ReadFile(path)
				if err != nil {
					t.Fatal(err)
				}
				d.hurt(data)
				if err := os.WriteFile(path, data, 0o644); err != nil {
					t.Fatal(err)
				}
				checkDamagedBundle(t, dir)
			})
		}
	}
}

// checkDamagedBundle opens dir and, if that works, uses it directly and
// through the protocol.
func checkDamagedBundle(t *testing.T, dir string) {
	t.Helper()
	x, err := openNoPanic(t, dir)
	if err != nil {
		return // refused at open: the documented outcome
	}
	defer x.Close()
	for _, k := range ext.Kinds {
		noPanic(t, fmt.Sprintf("Search %s", k), func() { x.Search(context.Background(), ext.Query{Kind: k, Text: "weather forecast note", Limit: 10}) })
		noPanic(t, fmt.Sprintf("List %s", k), func() { x.List(context.Background(), k, 0, 10) })
		noPanic(t, fmt.Sprintf("Resolve %s", k), func() { x.Resolve(context.Background(), k, "weather__get_forecast") })
	}
	s := server.New(x, &server.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	for _, body := range []string{
		`{"jsonrpc":"2.0","id":1,"method":"tools/search","params":{"query":"weather forecast"}}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/list"}`,
		`{"jsonrpc":"2.0","id":1,"method":"prompts/search","params":{"query":"note"}}`,
	} {
		req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		rec := httptest.NewRecorder()
		s.ServeHTTP(rec, req)
		if out := rec.Body.String(); !strings.Contains(out, `"result"`) && !strings.Contains(out, `"code":-32603`) {
			t.Errorf("%s: got %d %s, want a result or -32603", body, rec.Code, out)
		}
	}
}

func openNoPanic(t *testing.T, dir string) (x *Index, err error) {
	defer func() {
		if p := recover(); p != nil {
			t.Errorf("Open panicked on a damaged bundle: %v", p)
			err = fmt.Errorf("panic: %v", p)
		}
	}()
	return Open(dir)
}

func noPanic(t *testing.T, what string, f func()) {
	t.Helper()
	defer func() {
		if p := recover(); p != nil {
			t.Errorf("%s panicked on a damaged bundle: %v", what, p)
		}
	}()
	f()
}

func copyBundle(tb testing.TB, src string) string {
	tb.Helper()
	dst := filepath.Join(tb.TempDir(), "bundle")
	err := filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		tb.Fatal(err)
	}
	return dst
}

// TestTruncatedBundleFilesFailOpen truncates each file of a bundle in turn
// (by one byte, and to nothing): Open refuses the bundle, naming the
// damage, before any reader maps the file.
func TestTruncatedBundleFilesFailOpen(t *testing.T) {
	t.Parallel()
	pristine := filepath.Join(t.TempDir(), "bundle")
	m, err := BuildDir("testdata/catalog", pristine, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range m.Files {
		for _, size := range []int64{f.Size - 1, 0} {
			t.Run(fmt.Sprintf("%s to %d bytes", f.Path, size), func(t *testing.T) {
				dir := copyBundle(t, pristine)
				if err := os.Truncate(filepath.Join(dir, f.Path), size); err != nil {
					t.Fatal(err)
				}
				x, err := openNoPanic(t, dir)
				if err == nil {
					x.Close()
					t.Fatal("Open succeeded on a truncated bundle")
				}
				if !strings.Contains(err.Error(), "truncated or altered") {
					t.Errorf("got %q, want it to say the file is truncated or altered", err)
				}
			})
		}
	}
}

// damagedBoltEnv names the bundle whose root.bolt a re-executed test
// binary damages and opens (see TestMain).
const damagedBoltEnv = "MCPSEARCH_TEST_DAMAGE_BOLT"

// boltOffsets are offsets into a page of root.bolt that bolt follows
// without a check: a page header is 16 bytes, and the first element's
// position and key size lie 20 to 28 bytes in. Flipping one of them on a
// leaf page made Open read outside the mapping (SIGSEGV, "unexpected
// fault address"), which killed the process.
var boltOffsets = []int{22, 26, 30, 34}

// TestDamagedBoltFailsOpen flips one byte at a time across root.bolt (at
// boltOffsets of each 4 KiB page) and opens the bundle, in a child process
// since a fault cannot be recovered: every damaged root.bolt is refused by
// Open with an error naming it, and the process lives.
func TestDamagedBoltFailsOpen(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "bundle")
	if _, err := BuildDir("testdata/catalog", dir, nil); err != nil {
		t.Fatal(err)
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "-test.run", "^$")
	cmd.Env = append(os.Environ(), damagedBoltEnv+"="+dir)
	out, err := cmd.Output()
	lines := strings.Split(strings.TrimSpace(string(out)), "\n")
	if err != nil {
		t.Fatalf("the process opening damaged bundles died at %q: %v", lines[len(lines)-1], err)
	}
	for _, line := range lines {
		if !strings.Contains(line, "refused: ") || !strings.Contains(line, "root.bolt") {
			t.Errorf("got %q, want Open to refuse the damaged root.bolt, naming it", line)
		}
	}
	if want := 16 * len(boltOffsets); len(lines) != want {
		t.Errorf("got %d damaged opens, want %d", len(lines), want)
	}
}

// openDamagedBolts is the child of TestDamagedBoltFailsOpen: it prints one
// line for each damaged root.bolt, the offset first, so that a crash names
// the offset.
func openDamagedBolts(dir string) int {
	path := filepath.Join(dir, "bleve", "store", "root.bolt")
	pristine, err := os.ReadFile(path)
	if err != nil {
		fmt.Println(err)
		return 1
	}
	for page := range len(pristine) / 4096 {
		for _, d := range boltOffsets {
			off := page*4096 + d
			data := bytes.Clone(pristine)
			data[off] ^= 0xff
			if err := os.WriteFile(path, data, 0o644); err != nil {
				fmt.Println(err)
				return 1
			}
			fmt.Printf("offset %d: ", off)
			if x, err := Open(dir); err != nil {
				fmt.Printf("refused: %v\n", err)
			} else {
				x.Close()
				fmt.Println("opened")
			}
		}
	}
	return 0
}
