package bundle

import (
	"os"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// TestBuildKeepsRunningBuildsFolders: of the build folders beside its
// target, a build removes those of dead builds (lock free) and old ones
// without a lock, and keeps the folder of a running build (lock held) and
// a young one without a lock (a build about to lock it).
func TestBuildKeepsRunningBuildsFolders(t *testing.T) {
	parent := t.TempDir()
	running, err := newWorkDir(parent)
	if err != nil {
		t.Fatal(err)
	}
	defer running.remove()
	os.MkdirAll(filepath.Join(running.bundle(), "bleve"), 0o755)
	dead := mkdirs(t, parent, workPrefix+"dead")
	os.WriteFile(filepath.Join(dead, lockName), nil, 0o644) // a lock no one holds
	young := mkdirs(t, parent, workPrefix+"young")
	old := mkdirs(t, parent, workPrefix+"legacy.old") // as builds before the lock left them
	past := time.Now().Add(-2 * staleAge)
	os.Chtimes(old, past, past)

	if _, err := BuildDir("../../testdata/catalog", filepath.Join(parent, "bundle"), nil); err != nil {
		t.Fatal(err)
	}
	want := []string{filepath.Base(running.dir), filepath.Base(young)}
	slices.Sort(want)
	if got := workFolders(t, parent); !slices.Equal(got, want) {
		t.Errorf("build folders left: got %v, want %v", got, want)
	}
	if _, err := os.Stat(filepath.Join(running.bundle(), "bleve")); err != nil {
		t.Errorf("the running build's bundle: %v", err)
	}
}

func mkdirs(t *testing.T, parent, name string) string {
	t.Helper()
	dir := filepath.Join(parent, name)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// workFolders lists the build folders in parent.
func workFolders(t *testing.T, parent string) []string {
	t.Helper()
	matches, err := filepath.Glob(filepath.Join(parent, workPrefix+"*"))
	if err != nil {
		t.Fatal(err)
	}
	for i, m := range matches {
		matches[i] = filepath.Base(m)
	}
	return matches
}
