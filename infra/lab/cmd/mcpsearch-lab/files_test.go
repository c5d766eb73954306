package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestWriteFileAtomically: the file is replaced whole, readable by all,
// with no temporary file left beside it; a folder that does not exist is
// an error naming the path.
func TestWriteFileAtomically(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "model.json")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := writeFileAtomically(path, []byte("new")); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(path)
	if err != nil || string(data) != "new" {
		t.Fatalf("read %q, %v; want new", data, err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644", fi.Mode().Perm())
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d files in the folder, want the model only", len(entries))
	}
	missing := filepath.Join(dir, "absent", "model.json")
	if err := writeFileAtomically(missing, []byte("x")); err == nil || !strings.Contains(err.Error(), missing) {
		t.Errorf("write into a missing folder: %v, want an error naming %s", err, missing)
	}
}
