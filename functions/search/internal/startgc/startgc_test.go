package startgc

import (
	"os"
	"runtime/debug"
	"strconv"
	"testing"
)

// gcPercent reads the collector's setting.
func gcPercent() int {
	p := debug.SetGCPercent(100)
	debug.SetGCPercent(p)
	return p
}

// TestRelax: the start collects less (Percent) unless GOGC asks for less
// already, and restore puts back what the process had, once.
func TestRelax(t *testing.T) {
	for _, tc := range []struct {
		name                  string
		before, during, after int // GOGC before the start, during it, restored
	}{
		{"default", 100, Percent, 100},
		{"GOGC=50", 50, Percent, 50},
		{"GOGC=800 collects less already", 800, 800, 800},
		{"GOGC=off", -1, -1, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer debug.SetGCPercent(debug.SetGCPercent(tc.before))
			restore := relax()
			if got := gcPercent(); got != tc.during {
				t.Errorf("during the start: got GOGC %d, want %d", got, tc.during)
			}
			restore()
			if got := gcPercent(); got != tc.after {
				t.Errorf("restored: got GOGC %d, want %d", got, tc.after)
			}
			debug.SetGCPercent(70) // set by someone else since: a second restore leaves it
			restore()
			if got := gcPercent(); got != 70 {
				t.Errorf("after a second restore: got GOGC %d, want 70 (restore acts once)", got)
			}
		})
	}
}

// TestNotInLambda: outside Lambda the package changes nothing: the
// setting is GOGC's (default 100).
func TestNotInLambda(t *testing.T) {
	want := 100
	switch env := os.Getenv("GOGC"); env {
	case "":
	case "off":
		want = -1
	default:
		var err error
		if want, err = strconv.Atoi(env); err != nil {
			t.Fatalf("GOGC=%q: %v", env, err)
		}
	}
	if got := gcPercent(); got != want {
		t.Errorf("a test process (no AWS_LAMBDA_RUNTIME_API): got GOGC %d, want %d", got, want)
	}
}
