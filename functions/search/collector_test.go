package main

import (
	"context"
	"io"
	"log/slog"
	"runtime/debug"
	"testing"

	"github.com/aws/aws-lambda-go/events"
)

// gcPercent reads the collector's setting (by setting it and back).
func gcPercent() int {
	p := debug.SetGCPercent(-1)
	debug.SetGCPercent(p)
	return p
}

// TestCollectorPause: pausing switches the collector off and resuming
// restores the setting it had, once; a nil pause does nothing.
func TestCollectorPause(t *testing.T) {
	before := debug.SetGCPercent(150)
	defer debug.SetGCPercent(before)
	pause := pauseCollector()
	if got := gcPercent(); got != -1 {
		t.Fatalf("paused: GC percent %d, want -1 (off)", got)
	}
	pause.resume()
	debug.SetGCPercent(70)
	pause.resume()
	if got := gcPercent(); got != 70 {
		t.Errorf("after a second resume: GC percent %d, want 70 (the first resume restored 150, the second none)", got)
	}
	var none *collectorPause
	none.resume()
	if got := gcPercent(); got != 70 {
		t.Errorf("a nil pause resumed: GC percent %d, want 70 untouched", got)
	}
}

// TestResumingAfterFirstAnswer: the collector resumes when the second
// event begins, not during the first (whose answer the runtime posts
// after the handler returns).
func TestResumingAfterFirstAnswer(t *testing.T) {
	t.Parallel()
	resumed, handled := 0, 0
	var resumedBeforeSecond int
	handle := resumingAfterFirstAnswer(func() { resumed++ }, func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
		handled++
		if handled == 2 {
			resumedBeforeSecond = resumed
		}
		return events.APIGatewayV2HTTPResponse{StatusCode: 200}, nil
	})
	if _, err := handle(context.Background(), events.APIGatewayV2HTTPRequest{}); err != nil || resumed != 0 {
		t.Fatalf("first event: err %v, resumed %d times, want 0", err, resumed)
	}
	handle(context.Background(), events.APIGatewayV2HTTPRequest{})
	if resumedBeforeSecond != 1 {
		t.Errorf("second event: resumed %d times before it was handled, want 1", resumedBeforeSecond)
	}
}

// TestBuildAtStartResumesCollector: building a bundle at start-up (a
// catalog, no bundle) runs with the collector on — a build allocates far
// more than it keeps.
func TestBuildAtStartResumesCollector(t *testing.T) {
	before := gcPercent()
	pause := pauseCollector()
	defer pause.resume()
	cfg := &Config{Catalog: "../../index/testdata/catalog", CacheDir: t.TempDir()}
	idx, err := openIndex(cfg, slog.New(slog.NewTextHandler(io.Discard, nil)), pause)
	if err != nil {
		t.Fatal(err)
	}
	defer idx.Close()
	if got := gcPercent(); got != before {
		t.Errorf("after building at start-up: GC percent %d, want %d (resumed)", got, before)
	}
}
