package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/mcpsearch/mcpsearch/infra/cli/clitest"
)

// repoRoot is the root of the repository; tests run in
// infra/lab/cmd/mcpsearch-lab.
const repoRoot = "../../../.."

// testCatalog is the index's small test catalog.
const testCatalog = repoRoot + "/index/testdata/catalog"

// runCLI runs the command line args in process (clitest.Call).
func runCLI(args ...string) (code int, stdout, stderr string) { return clitest.Call(run, args...) }

// writeFile and readFile write and read a file for a test.
var (
	writeFile = clitest.WriteFile
	readFile  = clitest.ReadFile
)

// checkRegenerates runs the command line args with --out a temporary file
// and fails unless it writes the bytes of the repository's file (relative
// to its root): what a generator writes today is what is checked in. It
// returns the command's standard output.
func checkRegenerates(t *testing.T, file string, args ...string) string {
	t.Helper()
	out := filepath.Join(t.TempDir(), filepath.Base(file))
	code, stdout, stderr := runCLI(append(args, "--out", out)...)
	if code != 0 {
		t.Fatalf("%s: exit %d: %s", args[0], code, stderr)
	}
	written, err := os.ReadFile(out)
	if err != nil {
		t.Fatal(err)
	}
	checkedIn, err := os.ReadFile(filepath.Join(repoRoot, file))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(written, checkedIn) {
		t.Errorf("%s is not what %s writes today (%d bytes against %d): run go run ./infra/lab/cmd/mcpsearch-lab %s", file, args[0], len(checkedIn), len(written), args[0])
	}
	return stdout
}
