package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
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

// Start is one way to start a function for ColdStart: its bootstrap, its
// environment and, if FreshEnv is set, the name of a variable that gets a
// new empty directory on each start (the naive start-up build's cache).
type Start struct {
	Bootstrap string
	Env       []string
	FreshEnv  string
}

// Alternate cold-starts each of starts n times, in turn (a, b, a, b, …),
// so that whatever else loads the machine weighs on each alike, and
// returns the Stats of each, in the order of starts.
func Alternate(starts []Start, n int, timeout time.Duration) ([]Stats, error) {
	times := make([][]time.Duration, len(starts))
	for range n {
		for i, s := range starts {
			d, err := s.coldStart(timeout)
			if err != nil {
				return nil, fmt.Errorf("%s: %w", filepath.Base(s.Bootstrap), err)
			}
			times[i] = append(times[i], d)
		}
	}
	stats := make([]Stats, len(starts))
	for i, ds := range times {
		stats[i] = statsOf(ds)
	}
	return stats, nil
}

func (s Start) coldStart(timeout time.Duration) (time.Duration, error) {
	env := s.Env
	if s.FreshEnv != "" {
		dir, err := os.MkdirTemp("", "mcpsearch-cold-")
		if err != nil {
			return 0, err
		}
		defer os.RemoveAll(dir)
		env = append(slices.Clone(s.Env), s.FreshEnv+"="+dir)
	}
	return ColdStart(s.Bootstrap, env, timeout)
}

// statsOf returns the Stats of ds, which it sorts; ds is not empty.
func statsOf(ds []time.Duration) Stats {
	slices.Sort(ds)
	return Stats{Min: ds[0], Median: ds[len(ds)/2], Max: ds[len(ds)-1]}
}

// floorPackage is the trivial Lambda function bench coldstart measures
// beside mcpsearch: the floor of a cold start on aws-lambda-go.
const floorPackage = "./infra/lab/bench/testdata/floor"

// CompileFloor builds the floor function from the module at dir (the
// repository root) for this machine, with the flags and tags bootstrap is
// built with, into out.
func CompileFloor(dir, out string) error {
	abs, err := filepath.Abs(out)
	if err != nil {
		return err
	}
	cmd := exec.Command("go", "build", "-tags", "lambda.norpc", "-trimpath", "-ldflags", "-s -w", "-o", abs, floorPackage)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "CGO_ENABLED=0")
	if output, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("go build %s: %w\n%s", floorPackage, err, output)
	}
	return nil
}
