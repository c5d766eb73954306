package index

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// buildFolderPrefix begins the name of a build's own folder (package
// bundle's workPrefix).
const buildFolderPrefix = ".mcpsearch-build-"

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

// workFolders lists the build folders in parent.
func workFolders(t *testing.T, parent string) []string {
	t.Helper()
	matches, err := filepath.Glob(filepath.Join(parent, buildFolderPrefix+"*"))
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
		if m, _ := filepath.Glob(filepath.Join(parent, buildFolderPrefix+"*", rel)); len(m) > 0 {
			return
		}
		time.Sleep(5 * time.Millisecond)
	}
	t.Fatalf("no build folder holding %s appeared in %s", rel, parent)
}
