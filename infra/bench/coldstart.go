package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"time"

	"github.com/mcpsearch/mcpsearch/infra/testenv/lambdaemu"
)

// searchEvent is a Function URL event carrying a tools/search request.
var searchEvent = func() []byte {
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/search","params":{"query":"take a screenshot of the page","limit":5}}`
	ev := map[string]any{
		"version": "2.0", "routeKey": "$default", "rawPath": "/mcp", "rawQueryString": "",
		"headers": map[string]string{"content-type": "application/json", "accept": "application/json, text/event-stream"},
		"requestContext": map[string]any{
			"domainName": "abc.lambda-url.us-east-1.on.aws", "stage": "$default",
			"http": map[string]string{"method": "POST", "path": "/mcp", "protocol": "HTTP/1.1", "sourceIp": "127.0.0.1"},
		},
		"body": body, "isBase64Encoded": false,
	}
	b, _ := json.Marshal(ev)
	return b
}()

// ColdStart execs bootstrap with env under a fresh runtime API emulator and
// returns the time from exec to the first tools/search answer.
func ColdStart(bootstrap string, env []string, timeout time.Duration) (time.Duration, error) {
	emu, err := lambdaemu.Start(timeout)
	if err != nil {
		return 0, err
	}
	defer emu.Close()
	cmd := emu.Command(bootstrap, append([]string{"MCPSEARCH_AUTH=none"}, env...)...)
	cmd.Stderr = nil
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	start := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	defer func() { cmd.Process.Kill(); cmd.Wait() }()
	payload, err := emu.Invoke(ctx, searchEvent)
	elapsed := time.Since(start)
	if err != nil {
		return 0, err
	}
	var resp struct {
		StatusCode int    `json:"statusCode"`
		Body       string `json:"body"`
	}
	if err := json.Unmarshal(payload, &resp); err != nil || resp.StatusCode != 200 {
		return 0, fmt.Errorf("cold start answer: status %d, %s", resp.StatusCode, payload)
	}
	return elapsed, nil
}

// Stats are the minimum, median and maximum of some durations.
type Stats struct{ Min, Median, Max time.Duration }

// ColdStarts runs ColdStart n times; fresh gives each run its own empty
// directory (for the naive start-up build's cache) as the value of the
// environment variable named by freshEnv.
func ColdStarts(bootstrap string, env []string, freshEnv string, n int, timeout time.Duration) (Stats, error) {
	var ds []time.Duration
	for range n {
		runEnv := env
		if freshEnv != "" {
			dir, err := os.MkdirTemp("", "mcpsearch-cold-")
			if err != nil {
				return Stats{}, err
			}
			runEnv = append(slices.Clone(env), freshEnv+"="+dir)
			defer os.RemoveAll(dir)
		}
		d, err := ColdStart(bootstrap, runEnv, timeout)
		if err != nil {
			return Stats{}, err
		}
		ds = append(ds, d)
	}
	slices.Sort(ds)
	return Stats{Min: ds[0], Median: ds[len(ds)/2], Max: ds[len(ds)-1]}, nil
}
