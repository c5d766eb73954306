package index

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/vectors"
)

func TestBuildWritesReadableBundle(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "bundle")
	built := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	m, err := BuildDir("testdata/catalog", dir, &BuildOptions{Now: func() time.Time { return built }})
	if err != nil {
		t.Fatal(err)
	}
	if !m.BuiltAt.Equal(built) || m.Format != FormatVersion || m.Counts[ext.KindTool] != 6 {
		t.Errorf("manifest: got %+v", m)
	}
	if servers, err := ReadServers(dir); err != nil || len(servers) != 2 {
		t.Errorf("list of servers: got %d, %v; want 2", len(servers), err)
	}
	if m.BleveVersion != "v2.5.7" {
		t.Errorf("got bleve version %q, want v2.5.7", m.BleveVersion)
	}
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		info, _ := d.Info()
		want := os.FileMode(0o644)
		if d.IsDir() {
			want = 0o755
		}
		if info.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", path, info.Mode().Perm(), want)
		}
		return nil
	})
	if entries, _ := os.ReadDir(filepath.Dir(dir)); len(entries) != 1 {
		t.Errorf("build left %d entries beside the bundle, want none", len(entries)-1)
	}
	if _, err := Verify(dir); err != nil {
		t.Errorf("Verify: %v", err)
	}
}

func TestFailedBuildLeavesNoBundle(t *testing.T) {
	t.Parallel()
	parent := t.TempDir()
	dir := filepath.Join(parent, "bundle")
	bad := writeCatalog(t, map[string]string{
		"a.json": `{"server":"a","tools":[{"name":"t","inputSchema":{}}]}`,
		"m.json": `{"server":"m","tools":[{"name":"t","inputSchema":[]}]}`,
		"z.json": `{"server":"z","tools":[{"name":"t","inputSchema":{}}]}`,
	})
	if _, err := BuildDir(bad, dir, nil); err == nil || !strings.Contains(err.Error(), "m.json") {
		t.Fatalf("got %v, want an error naming m.json", err)
	}
	if _, err := Open(dir); err == nil {
		t.Errorf("a bundle opens at %s after a failed build", dir)
	}
	if entries, _ := os.ReadDir(parent); len(entries) != 0 {
		t.Errorf("failed build left %v in %s", entries, parent)
	}

	// A failed rebuild keeps the previous bundle whole.
	if _, err := BuildDir("testdata/catalog", dir, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := BuildDir(bad, dir, nil); err == nil {
		t.Fatal("rebuild from a bad catalog succeeded")
	}
	if _, err := Verify(dir); err != nil {
		t.Errorf("previous bundle damaged by a failed rebuild: %v", err)
	}
}

func TestBuildRefusesToReplaceOtherData(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "precious.txt"), []byte("x"), 0o644)
	if _, err := BuildDir("testdata/catalog", dir, nil); err == nil || !strings.Contains(err.Error(), "not an index bundle") {
		t.Errorf("got %v, want a refusal to replace a directory that is not a bundle", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "precious.txt")); err != nil {
		t.Errorf("the directory's file is gone: %v", err)
	}
}

func TestOpenRefusesDamagedBundles(t *testing.T) {
	for _, test := range []struct {
		name   string
		damage func(t *testing.T, dir string, m *Manifest)
		want   string
	}{
		{"missing manifest", func(t *testing.T, dir string, _ *Manifest) {
			os.Remove(filepath.Join(dir, ManifestFile))
		}, "no manifest.json"},
		{"manifest not JSON", func(t *testing.T, dir string, _ *Manifest) {
			os.WriteFile(filepath.Join(dir, ManifestFile), []byte("{"), 0o644)
		}, "manifest is not valid JSON"},
		{"other format version", func(t *testing.T, dir string, m *Manifest) {
			m.Format = FormatVersion + 1
			writeManifest(t, dir, m)
		}, fmt.Sprintf("bundle format %d, this build reads format %d", FormatVersion+1, FormatVersion)},
		{"altered file size in manifest", func(t *testing.T, dir string, m *Manifest) {
			m.Files[0].Size++
			writeManifest(t, dir, m)
		}, "truncated or altered"},
		{"truncated segment", func(t *testing.T, dir string, m *Manifest) {
			seg := segmentFile(t, m)
			os.Truncate(filepath.Join(dir, seg.Path), seg.Size/2)
		}, "truncated or altered"},
		{"missing segment", func(t *testing.T, dir string, m *Manifest) {
			os.Remove(filepath.Join(dir, segmentFile(t, m).Path))
		}, "no such file"},
		{"vectors file cut short, manifest agreeing", func(t *testing.T, dir string, m *Manifest) {
			for i, f := range m.Files {
				if f.Path == vectors.File {
					os.Truncate(filepath.Join(dir, f.Path), f.Size-1)
					m.Files[i].Size--
				}
			}
			writeManifest(t, dir, m)
		}, "vectors.bin: "},
		{"unlisted file", func(t *testing.T, dir string, _ *Manifest) {
			os.WriteFile(filepath.Join(dir, "bleve", "extra.zap"), []byte("x"), 0o644)
		}, "not in the manifest"},
	} {
		t.Run(test.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "bundle")
			m, err := BuildDir("testdata/catalog", dir, nil)
			if err != nil {
				t.Fatal(err)
			}
			test.damage(t, dir, m)
			x, err := Open(dir)
			if err == nil {
				x.Close()
				t.Fatalf("Open succeeded on a bundle with %s", test.name)
			}
			if !strings.Contains(err.Error(), test.want) {
				t.Errorf("got %q, want it to contain %q", err, test.want)
			}
		})
	}
}

func TestVerifyDetectsAlteredBytes(t *testing.T) {
	t.Parallel()
	dir := filepath.Join(t.TempDir(), "bundle")
	m, err := BuildDir("testdata/catalog", dir, nil)
	if err != nil {
		t.Fatal(err)
	}
	seg := filepath.Join(dir, segmentFile(t, m).Path)
	data, _ := os.ReadFile(seg)
	data[len(data)/2] ^= 0xff
	os.WriteFile(seg, data, 0o644)
	if _, err := Verify(dir); err == nil || !strings.Contains(err.Error(), "SHA-256") {
		t.Errorf("got %v, want a hash mismatch", err)
	}
}

func segmentFile(t *testing.T, m *Manifest) FileInfo {
	for _, f := range m.Files {
		if strings.HasSuffix(f.Path, ".zap") {
			return f
		}
	}
	t.Fatalf("no segment in %+v", m.Files)
	return FileInfo{}
}

// writeManifest writes m as the manifest of the bundle at dir, with the
// checksum of its content: a manifest that says what m says.
func writeManifest(t *testing.T, dir string, m *Manifest) {
	if err := m.Seal(); err != nil {
		t.Fatal(err)
	}
	data, _ := json.Marshal(m)
	if err := os.WriteFile(filepath.Join(dir, ManifestFile), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// openAsChildEnv names the bundle a re-executed test binary opens (see
// TestOpenReadOnlyAsAnotherUser).
const openAsChildEnv = "MCPSEARCH_TEST_OPEN_BUNDLE"

// openAsChild opens the bundle at dir, searches and lists it, and returns
// the process exit code.
func openAsChild(dir string) int {
	x, err := Open(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	defer x.Close()
	page, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: "weather forecast", Limit: 3})
	if err != nil || len(page.Items) == 0 {
		fmt.Fprintln(os.Stderr, "search:", err, page)
		return 1
	}
	if _, err := x.List(context.Background(), ext.KindTool, 0, 10); err != nil {
		fmt.Fprintln(os.Stderr, "list:", err)
		return 1
	}
	fmt.Println("opened as uid", os.Getuid())
	return 0
}

// TestOpenReadOnlyAsAnotherUser opens a read-only copy of a bundle as a
// user that does not own it, as Lambda does: as root the test re-executes
// itself as nobody; otherwise the read-only tree is opened by this user.
// Nothing in the tree may change.
func TestOpenReadOnlyAsAnotherUser(t *testing.T) {
	base, err := os.MkdirTemp("", "mcpsearch-ro-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		filepath.WalkDir(base, func(p string, _ os.DirEntry, _ error) error { return os.Chmod(p, 0o755) })
		os.RemoveAll(base)
	})
	os.Chmod(base, 0o755)
	dir := filepath.Join(base, "bundle")
	if _, err := BuildDir("testdata/catalog", dir, nil); err != nil {
		t.Fatal(err)
	}
	makeReadOnly(t, dir)
	before := snapshot(t, dir)
	if os.Getuid() == 0 {
		runAsNobody(t, base, dir)
	} else if code := openAsChild(dir); code != 0 {
		t.Fatalf("opening the read-only bundle failed")
	}
	if after := snapshot(t, dir); after != before {
		t.Errorf("the bundle changed while open:\nbefore %s\nafter  %s", before, after)
	}
}

func makeReadOnly(t *testing.T, dir string) {
	var dirs []string
	filepath.WalkDir(dir, func(p string, d os.DirEntry, _ error) error {
		if d.IsDir() {
			dirs = append(dirs, p)
		} else {
			os.Chmod(p, 0o444)
		}
		return nil
	})
	for i := len(dirs) - 1; i >= 0; i-- {
		os.Chmod(dirs[i], 0o555)
	}
}

func runAsNobody(t *testing.T, base, dir string) {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(base, "index.test")
	if err := copyFile(self, exe, 0o755); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(exe, "-test.run", "^$")
	cmd.Env = append(os.Environ(), openAsChildEnv+"="+dir)
	cmd.Dir = base
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: &syscall.Credential{Uid: 65534, Gid: 65534}}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "opened as uid 65534") {
		t.Fatalf("opening as nobody: %v\n%s", err, out)
	}
}

func copyFile(src, dst string, mode os.FileMode) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// snapshot lists every entry of dir with its size, mode and mtime.
func snapshot(t *testing.T, dir string) string {
	var b strings.Builder
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil {
			t.Fatal(err)
		}
		info, _ := d.Info()
		fmt.Fprintf(&b, "%s %d %v %d; ", p, info.Size(), info.Mode(), info.ModTime().UnixNano())
		return nil
	})
	return b.String()
}

func TestGoModPinsBleve(t *testing.T) {
	t.Parallel()
	data, err := os.ReadFile("../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	if want := "github.com/blevesearch/bleve/v2 " + BleveVersion; !strings.Contains(string(data), want) {
		t.Errorf("go.mod does not require %s: bundles would record the wrong version", want)
	}
}
