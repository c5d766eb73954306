package main

import "github.com/mcpsearch/mcpsearch/infra/cli/clitest"

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
