// Package calltrace traces one request through the code: the packages and
// files it enters, in order, and how often it goes back to one it had
// left. It copies the module, instruments every function of the serving
// packages of the copy (ext, index, functions/search) to record its
// entry (package hook), and runs one request through the function's HTTP
// handler there, twice on fresh handlers, refusing a trace the two runs
// disagree on (on one processor, the collector off, so that pools behave
// the same in both). The module itself is never changed, and nothing serving
// imports this package (TestServingBinaryLinksNoLab).
//
// Entries are what is recorded, not returns: a function that calls two
// packages in turn counts as staying where it is, and a package is
// "returned to" when a function of it is entered again after functions of
// another package were (a callback, or a step that goes back for more).
package calltrace

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/mcpsearch/mcpsearch/infra/lab/calltrace/hook"
)

// Traced are the directories whose functions the copy records.
var Traced = []string{"ext", "index", "functions/search"}

//go:embed driver_test.go.txt
var driver []byte

// driverFile is where the driver test goes in the copy.
const driverFile = "functions/search/calltrace_driver_test.go"

// Options say what to trace. Request is the JSON-RPC body traced, Warmup
// the one served first on the same handler (so that what a process loads
// once, on its first search, is not in the trace).
type Options struct {
	Root    string // the module's root
	Work    string // an empty directory for the copy
	Request string
	Warmup  string
}

// Run copies and instruments the module under o.Work, serves the request
// there and returns the functions it entered, with their files under the
// copy's root (o.Work).
func Run(o Options) ([]hook.Call, error) {
	if err := copyTree(o.Root, o.Work); err != nil {
		return nil, fmt.Errorf("copy %s: %w", o.Root, err)
	}
	if err := instrumentDirs(o.Work, Traced); err != nil {
		return nil, err
	}
	if err := os.WriteFile(filepath.Join(o.Work, driverFile), driver, 0o644); err != nil {
		return nil, err
	}
	out := filepath.Join(o.Work, "calltrace.json")
	cmd := exec.Command("go", "test", "-count=1", "-run", "^TestCallTraceOneSearch$", "./functions/search/")
	cmd.Dir = o.Work
	cmd.Env = append(os.Environ(), "GOMAXPROCS=1", "CALLTRACE_OUT="+out, "CALLTRACE_REQUEST="+o.Request, "CALLTRACE_WARMUP="+o.Warmup)
	var log bytes.Buffer
	cmd.Stdout, cmd.Stderr = &log, &log
	if err := cmd.Run(); err != nil {
		return nil, fmt.Errorf("traced run: %w\n%s", err, log.Bytes())
	}
	data, err := os.ReadFile(out)
	if err != nil {
		return nil, err
	}
	var calls []hook.Call
	if err := json.Unmarshal(data, &calls); err != nil {
		return nil, fmt.Errorf("%s: %w", out, err)
	}
	return calls, nil
}
