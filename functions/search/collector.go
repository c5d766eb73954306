package main

import (
	"context"
	"runtime/debug"
	"sync"
	"sync/atomic"

	"github.com/aws/aws-lambda-go/events"
)

// collectorPause is the garbage collector switched off for the start: a
// start allocates mostly what it keeps (the manifest, the language tables,
// the first reads of the bundle), so a collection there is time spent
// finding little — 3 to 6 ms of a cold start, 10k to 100k tools
// (infra/README.md, performance). The live heap at the first answer is
// about 11 MB at 100k tools, so what it adds is bounded; the collector
// resumes, with the setting it had (GOGC), once the first answer is out.
type collectorPause struct {
	once    sync.Once
	percent int
}

// pauseCollector switches the collector off until resume is called.
func pauseCollector() *collectorPause {
	return &collectorPause{percent: debug.SetGCPercent(-1)}
}

// resume switches the collector back on; calls after the first, and on a
// nil pause (a function run in a test's process), do nothing.
func (p *collectorPause) resume() {
	if p != nil {
		p.once.Do(func() { debug.SetGCPercent(p.percent) })
	}
}

// lambdaHandlerFunc is what lambdaHandler returns and lambda.Start serves.
type lambdaHandlerFunc = func(context.Context, events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error)

// resumingAfterFirstAnswer calls resume when an event begins after one
// has been answered: only then has the runtime sent the first answer (it
// posts it after handle returns, so resuming inside the first event would
// let a collection delay it).
func resumingAfterFirstAnswer(resume func(), handle lambdaHandlerFunc) lambdaHandlerFunc {
	var answered atomic.Bool
	return func(ctx context.Context, ev events.APIGatewayV2HTTPRequest) (events.APIGatewayV2HTTPResponse, error) {
		if answered.Load() {
			resume()
		}
		defer answered.Store(true)
		return handle(ctx, ev)
	}
}
