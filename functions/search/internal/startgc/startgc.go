// Package startgc makes the garbage collector collect less while the
// function starts in Lambda, and puts its setting back when asked (after
// the first request).
//
// A cold start — package initialisation, opening the bundle, the first
// request — allocates what the process keeps (the dependencies' tables,
// the manifest, the tables a search reads) on a heap of a few MB, where
// at the default setting (GOGC=100) the collector ran two or three times
// with little to free. The setting must change before the heavy package
// initialisations (3 MB, most of it santhosh-tekuri/jsonschema's and
// bleve's scorch's), which main cannot do: this package is initialised
// before them, since packages are initialised in the order of their
// import paths as their imports are ready and this one imports nothing
// but runtime/debug and os (TestStartGCInitialisedFirst in
// functions/search checks the order). So it reads one variable itself,
// AWS_LAMBDA_RUNTIME_API, which Lambda sets: elsewhere (tests, the
// command line, the local server) it changes nothing.
package startgc

import (
	"os"
	"runtime/debug"
	"sync"
)

// Percent is the collector's setting (GOGC) during a start in Lambda.
const Percent = 400

// restore puts back the setting the process had before the start.
var restore = func() func() {
	if os.Getenv("AWS_LAMBDA_RUNTIME_API") == "" {
		return func() {}
	}
	return relax()
}()

// relax sets the collector to Percent, unless GOGC asks for less
// collection already (off, or a larger percent), and returns the function
// that restores the setting, once.
func relax() (restore func()) {
	prev := debug.SetGCPercent(Percent)
	if prev < 0 || prev >= Percent {
		debug.SetGCPercent(prev)
		return func() {}
	}
	return sync.OnceFunc(func() { debug.SetGCPercent(prev) })
}

// Restore puts back the collector's setting the process had before its
// start in Lambda (GOGC, default 100). Later calls do nothing, nor does a
// call outside Lambda.
func Restore() { restore() }
