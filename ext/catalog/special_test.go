//go:build unix

package catalog

import (
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"testing/fstest"
	"time"
)

const oneTool = `{"server":"w","tools":[{"name":"get_weather","inputSchema":{"type":"object"}}]}`

// TestLoadRefusesSpecialFiles: a server file that is not a regular file —
// a link to /dev/zero (whose reported size is 0), a named pipe (which
// blocks whoever opens it), a directory — is refused at once with a
// *LoadError naming the file; a link to a regular file is followed.
func TestLoadRefusesSpecialFiles(t *testing.T) {
	for _, test := range []struct {
		name string
		make func(t *testing.T, path string)
	}{
		{"link to /dev/zero", func(t *testing.T, path string) { mustSymlink(t, "/dev/zero", path) }},
		{"named pipe", func(t *testing.T, path string) {
			if err := syscall.Mkfifo(path, 0o600); err != nil {
				t.Fatal(err)
			}
		}},
		{"directory", func(t *testing.T, path string) {
			if err := os.Mkdir(path, 0o700); err != nil {
				t.Fatal(err)
			}
		}},
	} {
		t.Run(test.name, func(t *testing.T) {
			dir := t.TempDir()
			writeFile(t, filepath.Join(dir, "a.json"), oneTool)
			bad := filepath.Join(dir, "b.json")
			test.make(t, bad)
			err := loadDirWithin(t, dir, 10*time.Second)
			var le *LoadError
			if !errors.As(err, &le) || le.File != bad || !strings.Contains(err.Error(), "not a regular file") {
				t.Fatalf("got %v, want a *LoadError naming %s, saying it is not a regular file", err, bad)
			}
		})
	}
	t.Run("link to a regular file", func(t *testing.T) {
		dir := t.TempDir()
		writeFile(t, filepath.Join(dir, "real.txt"), oneTool)
		mustSymlink(t, "real.txt", filepath.Join(dir, "w.json"))
		if err := loadDirWithin(t, dir, 10*time.Second); err != nil {
			t.Fatalf("got %v, want a link to a regular file followed", err)
		}
	})
}

// TestLoadReadsThroughABoundedReader: a file system that reports a small
// size but yields endless bytes is refused at MaxFileBytes, not read to
// the end of memory.
func TestLoadReadsThroughABoundedReader(t *testing.T) {
	_, err := LoadFS(lyingFS{}, "cat", nil)
	var le *LoadError
	if !errors.As(err, &le) || le.File != filepath.Join("cat", "s.json") || !strings.Contains(err.Error(), "over the limit") {
		t.Fatalf("got %v, want a *LoadError naming cat/s.json, saying the file is over the limit", err)
	}
}

// lyingFS holds one file, s.json, that says it is 10 bytes and never ends.
type lyingFS struct{}

func (lyingFS) Open(name string) (fs.File, error) {
	if name == "." {
		return fstest.MapFS{"s.json": {}}.Open(".")
	}
	if name != "s.json" {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return endless{}, nil
}

type endless struct{}

func (endless) Stat() (fs.FileInfo, error) {
	fsys := fstest.MapFS{"s.json": {Data: []byte("0123456789")}}
	return fs.Stat(fsys, "s.json")
}

func (endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = ' '
	}
	return len(p), nil
}

func (endless) Close() error { return nil }

var _ io.Reader = endless{}

// loadDirWithin loads dir, failing the test if that takes longer than
// limit (a named pipe would block forever).
func loadDirWithin(t *testing.T, dir string, limit time.Duration) error {
	t.Helper()
	done := make(chan error, 1)
	go func() {
		_, err := LoadDir(dir, nil)
		done <- err
	}()
	select {
	case err := <-done:
		return err
	case <-time.After(limit):
		t.Fatalf("LoadDir(%s) still running after %s", dir, limit)
		return nil
	}
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o600); err != nil {
		t.Fatal(err)
	}
}

func mustSymlink(t *testing.T, target, link string) {
	t.Helper()
	if err := os.Symlink(target, link); err != nil {
		t.Fatal(err)
	}
}
