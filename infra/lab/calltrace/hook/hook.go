// Package hook records the functions a traced run enters, in order. The
// instrumented copy that package calltrace makes calls [Enter] first in
// every function body; nothing else imports this package, and it imports
// the standard library only, so that any package of the module (ext
// included) may import it in that copy.
package hook

import (
	"runtime"
	"sync"
)

// Call is one function entered: its full name (package path, receiver,
// name), the file that holds it, and the files of its callers, the
// nearest first (at most maxCallers).
type Call struct {
	Func    string   `json:"func"`
	File    string   `json:"file"`
	Callers []string `json:"callers"`
}

// maxCallers bounds the callers recorded for one entry.
const maxCallers = 64

var (
	mu      sync.Mutex
	tracing bool
	calls   []Call
)

// Enter records its caller's function, while a trace is on.
func Enter() {
	mu.Lock()
	defer mu.Unlock()
	if !tracing {
		return
	}
	pcs := make([]uintptr, maxCallers+1)
	frames := runtime.CallersFrames(pcs[:runtime.Callers(2, pcs)])
	entered, more := frames.Next()
	c := Call{Func: entered.Function, File: entered.File}
	for more {
		var f runtime.Frame
		f, more = frames.Next()
		c.Callers = append(c.Callers, f.File)
	}
	calls = append(calls, c)
}

// Start begins a trace, forgetting any earlier one.
func Start() {
	mu.Lock()
	defer mu.Unlock()
	tracing, calls = true, nil
}

// Stop ends the trace and returns the functions entered since Start.
func Stop() []Call {
	mu.Lock()
	defer mu.Unlock()
	tracing = false
	return calls
}
