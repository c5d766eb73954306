package fleet

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// everythingBin is the entry point npm installs for the package pinned in
// this directory's package.json.
const everythingBin = "node_modules/.bin/mcp-server-everything"

// Everything returns the command and arguments that run the published
// @modelcontextprotocol/server-everything over stdio with node, from the
// copy `npm ci --prefix infra/testenv/fleet` installed (nothing is fetched at test
// time). It skips the test when node or that install is missing.
func Everything(tb testing.TB) (command string, args []string) {
	tb.Helper()
	node, err := exec.LookPath("node")
	if err != nil {
		tb.Skip("node is not on PATH: install Node.js ≥ 20 (apt-get install nodejs) and run `npm ci --prefix infra/testenv/fleet`")
	}
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		tb.Fatal("fleet: cannot locate the package directory")
	}
	bin := filepath.Join(filepath.Dir(file), everythingBin)
	if _, err := os.Stat(bin); err != nil {
		tb.Skipf("@modelcontextprotocol/server-everything is not installed (%v): run `npm ci --prefix infra/testenv/fleet`", err)
	}
	return node, []string{bin, "stdio"}
}
