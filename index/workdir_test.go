package index

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"
)

// buildIntoEnv names the bundle a re-executed test binary builds from the
// default catalog (see TestMain), to be killed while it builds.
const buildIntoEnv = "MCPSEARCH_TEST_BUILD_INTO"

func buildAsChild(dir string) int {
	if _, err := BuildDir(defaultCatalog, dir, nil); err != nil {
		fmt.Println(err)
		return 1
	}
	return 0
}

// TestKilledBuildIsCleanedUp kills (SIGKILL) a build while it writes its
// bundle: its folder stays beside the target, and the next build there
// removes it. (Before, nothing removed it, and `mcpsearch package` zipped
// it into the artifact.)
func TestKilledBuildIsCleanedUp(t *testing.T) {
	parent := t.TempDir()
	target := filepath.Join(parent, "bundle")
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(self, "-test.run", "^$")
	cmd.Env = append(os.Environ(), buildIntoEnv+"="+target)
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	waitForWork(t, parent, "bundle/bleve")
	cmd.Process.Kill()
	cmd.Wait()
	if left := workFolders(t, parent); len(left) != 1 {
		t.Fatalf("the killed build left %v, want its one folder", left)
	}
	if _, err := BuildDir("testdata/catalog", target, nil); err != nil {
		t.Fatal(err)
	}
	if left := workFolders(t, parent); len(left) != 0 {
		t.Errorf("after the next build: got %v, want no build folder left", left)
	}
	x, err := Open(target)
	if err != nil {
		t.Fatal(err)
	}
	x.Close()
}

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

	if _, err := BuildDir("testdata/catalog", filepath.Join(parent, "bundle"), nil); err != nil {
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

// waitForWork waits until a build folder in parent holds rel.
func waitForWork(t *testing.T, parent, rel string) {
	t.Helper()
	deadline := time.Now().Add(time.Minute)
	for time.Now().Before(deadline) {
		if m, _ := filepath.Glob(filepath.Join(parent, workPrefix+"*", rel)); len(m) > 0 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no build folder holding %s appeared in %s", rel, parent)
}
