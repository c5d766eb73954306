package upstream

import (
	"context"
	"encoding/json"
	"errors"
	"sync"
	"time"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
)

// stdioStartTimeout bounds starting and initializing a stdio upstream (npx
// may download its package first). It runs apart from the call that asked
// for it, so a short call timeout does not waste a slow start.
const stdioStartTimeout = 2 * time.Minute

// pool keeps one initialized client per stdio upstream, so that a local
// server starts once rather than per call. Calls share it concurrently; a
// client whose transport fails, or that does not answer in time, is
// dropped and the next call starts a new process. What the pool holds is
// the upstream's process, never anything of a client request.
type pool struct {
	mu      sync.Mutex
	entries map[string]*entry // by expanded configuration
	closed  bool
}

type entry struct {
	ready chan struct{} // closed once cl or err is set
	cl    *client.Client
	err   error
}

// get returns the client of cfg, starting it with dial if need be.
func (p *pool) get(ctx context.Context, cfg *Config, dial func(context.Context) (*client.Client, error)) (*entry, error) {
	key := poolKey(cfg)
	p.mu.Lock()
	if p.closed {
		p.mu.Unlock()
		return nil, errShuttingDown
	}
	e, ok := p.entries[key]
	if !ok {
		e = &entry{ready: make(chan struct{})}
		if p.entries == nil {
			p.entries = map[string]*entry{}
		}
		p.entries[key] = e
		go p.start(key, e, dial)
	}
	p.mu.Unlock()
	select {
	case <-e.ready:
		return e, e.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

func (p *pool) start(key string, e *entry, dial func(context.Context) (*client.Client, error)) {
	ctx, cancel := context.WithTimeout(context.Background(), stdioStartTimeout)
	defer cancel()
	e.cl, e.err = dial(ctx)
	close(e.ready)
	if e.err != nil {
		p.drop(key, e)
	}
}

// release drops e when err says its client can no longer be trusted: the
// transport failed or the call timed out (the process may be stuck).
func (p *pool) release(cfg *Config, e *entry, ctx context.Context, err error) {
	var te *transport.Error
	if err != nil && (errors.As(err, &te) || ctx.Err() != nil) {
		p.drop(poolKey(cfg), e)
	}
}

// drop removes e and closes its client (ending its process).
func (p *pool) drop(key string, e *entry) {
	p.mu.Lock()
	if p.entries[key] == e {
		delete(p.entries, key)
	}
	p.mu.Unlock()
	if e.cl != nil {
		go e.cl.Close()
	}
}

// close ends every pooled process.
func (p *pool) close() {
	p.mu.Lock()
	entries := p.entries
	p.entries, p.closed = nil, true
	p.mu.Unlock()
	for _, e := range entries {
		<-e.ready
		if e.cl != nil {
			e.cl.Close()
		}
	}
}

func poolKey(cfg *Config) string {
	b, _ := json.Marshal(cfg) // maps marshal with sorted keys
	return string(b)
}
