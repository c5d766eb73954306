package bench

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

// LoadResult is what one load level measured.
type LoadResult struct {
	Clients  int
	Requests int // answered or failed
	Errors   int // transport failures, non-200 answers and JSON-RPC errors
	Elapsed  time.Duration
	P50, P99 time.Duration // of the answered requests
}

// Throughput is the requests per second the level sustained.
func (r *LoadResult) Throughput() float64 {
	return float64(r.Requests) / r.Elapsed.Seconds()
}

// Load sends tools/search requests of the query mix to url from clients
// concurrent clients, each waiting for its answer before sending the next,
// until requests have been sent or maxTime has passed. One warm-up round of
// the mix goes first, unmeasured.
func Load(url string, clients, requests int, maxTime time.Duration) (*LoadResult, error) {
	hc := &http.Client{Timeout: 30 * time.Second, Transport: &http.Transport{MaxIdleConnsPerHost: clients}}
	defer hc.CloseIdleConnections()
	for i := range Queries {
		if err := searchOnce(hc, url, i); err != nil {
			return nil, fmt.Errorf("warm-up: %w", err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), maxTime)
	defer cancel()
	var next, errs atomic.Int64
	lats := make([][]time.Duration, clients)
	var wg sync.WaitGroup
	start := time.Now()
	for c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for ctx.Err() == nil {
				i := int(next.Add(1)) - 1
				if i >= requests {
					return
				}
				t0 := time.Now()
				if searchOnce(hc, url, i) != nil {
					errs.Add(1)
					continue
				}
				lats[c] = append(lats[c], time.Since(t0))
			}
		}()
	}
	wg.Wait()
	return loadResult(clients, int(errs.Load()), time.Since(start), slices.Concat(lats...)), nil
}

func loadResult(clients, errs int, elapsed time.Duration, lat []time.Duration) *LoadResult {
	r := &LoadResult{Clients: clients, Requests: len(lat) + errs, Errors: errs, Elapsed: elapsed}
	if len(lat) > 0 {
		slices.Sort(lat)
		r.P50, r.P99 = lat[len(lat)/2], lat[min(len(lat)-1, len(lat)*99/100)]
	}
	return r
}

// searchOnce sends query i of the mix and checks the answer is a result.
func searchOnce(hc *http.Client, url string, i int) error {
	body, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": i, "method": "tools/search",
		"params": map[string]any{"query": Queries[i%len(Queries)], "limit": 10}})
	resp, err := hc.Post(url, "application/json", bytes.NewReader(body))
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		return err
	}
	var msg struct {
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Code    int    `json:"code"`
			Message string `json:"message"`
		} `json:"error"`
	}
	if resp.StatusCode != http.StatusOK || json.Unmarshal(out, &msg) != nil || msg.Error != nil || msg.Result == nil {
		return fmt.Errorf("status %d: %.200s", resp.StatusCode, out)
	}
	return nil
}

// Server is a running search function serving plain HTTP on loopback.
type Server struct {
	URL string
	cmd *exec.Cmd
}

// StartServer runs the search function binary bin on a free loopback port,
// serving the bundle at dir, and waits (at most timeout) until it answers.
// Its logs go to logs (nil: discarded).
func StartServer(bin, dir string, logs io.Writer, timeout time.Duration) (*Server, error) {
	addr, err := freeLoopbackAddr()
	if err != nil {
		return nil, err
	}
	cmd := exec.Command(bin)
	cmd.Env = append(os.Environ(), "MCPSEARCH_INDEX="+dir, "MCPSEARCH_ADDR="+addr, "AWS_LAMBDA_RUNTIME_API=")
	cmd.Stdout, cmd.Stderr = logs, logs
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	s := &Server{URL: "http://" + addr + "/mcp", cmd: cmd}
	if err := s.waitReady(timeout); err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

func freeLoopbackAddr() (string, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return "", err
	}
	defer l.Close()
	return l.Addr().String(), nil
}

func (s *Server) waitReady(timeout time.Duration) error {
	hc := &http.Client{Timeout: time.Second}
	deadline := time.Now().Add(timeout)
	for {
		err := searchOnce(hc, s.URL, 0)
		if err == nil {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("server at %s not ready within %s: %w", s.URL, timeout, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// Stop ends the server process.
func (s *Server) Stop() {
	s.cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { s.cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		s.cmd.Process.Kill()
		<-done
	}
}
