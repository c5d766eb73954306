package main

import (
	"bytes"
	"os"
	"testing"
)

// repoRoot is the root of the repository; tests run in
// infra/lab/cmd/mcpsearch-lab.
const repoRoot = "../../../.."

// testCatalog is the index's small test catalog.
const testCatalog = repoRoot + "/index/testdata/catalog"

func runCLI(args ...string) (code int, stdout, stderr string) {
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

func writeFile(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readFile(t *testing.T, path string) string {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(data)
}
