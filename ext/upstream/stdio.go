package upstream

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
)

// Bounds of a stdio upstream's process.
const (
	// stderrTailBytes is how much of the end of a process's stderr is kept
	// for the error of a process that exits; stderrTailLines how many of
	// its last lines the error shows.
	stderrTailBytes = 2 << 10
	stderrTailLines = 12
	// exitWait is how long a failed request waits for the process to exit,
	// to report its exit status and stderr.
	exitWait = time.Second
	// stopWait is how long Close waits for the process to exit after its
	// stdin closes, then after SIGTERM, before killing it.
	stopWait = 2 * time.Second
)

// stdioTransport runs a stdio upstream's process itself, rather than
// leaving that to mcp-go, for two things mcp-go's stdio transport cannot
// do: bound what is read from the process (a line, one JSON-RPC message,
// longer than max fails with a *TooLargeError, having held at most max
// bytes of it), say why a process failed (an *ExitError with its exit
// status and the end of its stderr, where mcp-go says "transport closed"),
// and fail a request at once when the process answers an id it was not
// sent (a *WrongIDError, where mcp-go waits until the deadline).
// mcp-go's transport speaks the protocol over the process's pipes.
type stdioTransport struct {
	*transport.Stdio // set by Start
	cfg              *Config
	max              int64
	logger           *slog.Logger
	proc             *process
	out              *lineLimit
	ids              *idWatch
}

// Start starts the process, which lives as long as ctx or until Close.
func (t *stdioTransport) Start(ctx context.Context) error {
	p, err := startProcess(ctx, t.cfg)
	if err != nil {
		return err
	}
	t.proc, t.out = p, &lineLimit{r: p.stdout, max: t.max}
	t.ids = newIDWatch(t.out)
	t.Stdio = transport.NewIO(t.ids, p.stdin, nil)
	transport.WithCommandLogger(t.logger)(t.Stdio)
	return t.Stdio.Start(ctx)
}

func (t *stdioTransport) SendRequest(ctx context.Context, req transport.JSONRPCRequest) (*transport.JSONRPCResponse, error) {
	wctx, done := t.ids.wait(ctx, req.ID.String())
	resp, err := t.Stdio.SendRequest(wctx, req)
	done(resp != nil)
	if wrong := wrongID(wctx); err != nil && wrong != nil {
		return nil, wrong
	}
	if err != nil {
		return nil, t.why(ctx, err)
	}
	if err := checkID(req, resp); err != nil {
		return nil, err
	}
	keepAnswer(ctx, req, resp)
	return resp, nil
}

func (t *stdioTransport) SendNotification(ctx context.Context, n mcp.JSONRPCNotification) error {
	if err := t.Stdio.SendNotification(ctx, n); err != nil {
		return t.why(ctx, err)
	}
	return nil
}

// why replaces the error of a request that failed because the process's
// output was cut or the process ended by what happened.
func (t *stdioTransport) why(ctx context.Context, err error) error {
	if t.out.exceeded() {
		return &TooLargeError{Limit: t.max}
	}
	if ctx.Err() != nil {
		return err
	}
	if exit := t.proc.exitError(exitWait); exit != nil {
		return exit
	}
	return err
}

// Close ends the process: its stdin is closed, then it is sent SIGTERM,
// then killed, each after stopWait.
func (t *stdioTransport) Close() error {
	if t.Stdio == nil {
		return nil
	}
	err := t.Stdio.Close()
	t.proc.stop()
	return err
}

// process is a running stdio upstream.
type process struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	stdout *os.File // the read end of its stdout
	stderr *tail
	exited chan struct{} // closed once Wait returned
	state  error         // what Wait returned
}

// StartError is a stdio upstream's command that could not be started. It
// says why without naming the command or its path, which may hold values
// of the configuration.
type StartError struct{ Err error }

func (e *StartError) Error() string {
	var execErr *exec.Error
	if errors.As(e.Err, &execErr) {
		return "cannot start the command: " + execErr.Err.Error()
	}
	return "cannot start the command: " + innermost(e.Err).Error()
}

func (e *StartError) Unwrap() error { return e.Err }

// startProcess runs the command of cfg, with cfg's env added to this
// process's environment (as mcp-go does). Its stdout is a pipe of ours,
// so that what the process wrote before exiting is still read; its stderr
// is drained into a bounded tail so that it never blocks.
func startProcess(ctx context.Context, cfg *Config) (*process, error) {
	cmd := exec.CommandContext(ctx, cfg.Command, cfg.Args...)
	cmd.Env = os.Environ()
	for _, k := range sortedKeys(cfg.Env) {
		cmd.Env = append(cmd.Env, k+"="+cfg.Env[k])
	}
	cmd.WaitDelay = stopWait // a child that keeps stderr open does not hold Wait
	p := &process{cmd: cmd, stderr: &tail{}, exited: make(chan struct{})}
	cmd.Stderr = p.stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, &StartError{err}
	}
	r, w, err := os.Pipe()
	if err != nil {
		return nil, &StartError{err}
	}
	cmd.Stdout = w
	if err := cmd.Start(); err != nil {
		r.Close()
		w.Close()
		return nil, &StartError{err}
	}
	w.Close()
	p.stdin, p.stdout = stdin, r
	go func() {
		p.state = cmd.Wait()
		close(p.exited)
	}()
	return p, nil
}

// ExitError is a stdio upstream's process that ended: its exit status and
// the last lines it wrote to stderr.
type ExitError struct {
	State  string // "exit status 1", "signal: killed"
	Stderr string // the last lines of its stderr, at most stderrTailBytes
}

func (e *ExitError) Error() string {
	if e.Stderr == "" {
		return fmt.Sprintf("the process exited (%s) and wrote nothing to stderr", e.State)
	}
	return fmt.Sprintf("the process exited (%s); its stderr ends:\n%s", e.State, e.Stderr)
}

// exitError returns the process's end if it exits within d, else nil.
func (p *process) exitError(d time.Duration) *ExitError {
	select {
	case <-p.exited:
	case <-time.After(d):
		return nil
	}
	state := "exit status 0"
	if p.state != nil {
		state = p.state.Error()
	}
	return &ExitError{State: state, Stderr: p.stderr.lines(stderrTailLines)}
}

// stop ends the process: it is given stopWait to exit after its stdin
// closed (mcp-go's Close closes it), then SIGTERM, then it is killed.
// Nothing more is read: its stdout closes first, so that a process blocked
// writing fails at once.
func (p *process) stop() {
	p.stdout.Close()
	for _, signal := range []os.Signal{syscall.SIGTERM, os.Kill} {
		select {
		case <-p.exited:
			return
		case <-time.After(stopWait):
			p.cmd.Process.Signal(signal)
		}
	}
	<-p.exited
}

// tail keeps the last stderrTailBytes written to it.
type tail struct {
	mu   sync.Mutex
	buf  []byte
	lost bool // bytes before buf were dropped
}

func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - stderrTailBytes; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.lost = true
	}
	return len(p), nil
}

// lines returns the last n whole lines kept, without blank ones.
func (t *tail) lines(n int) string {
	t.mu.Lock()
	text := string(t.buf)
	lost := t.lost
	t.mu.Unlock()
	all := strings.Split(text, "\n")
	if lost && len(all) > 1 {
		all = all[1:] // the first line is cut
	}
	var out []string
	for _, l := range all {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	if len(out) > n {
		out = out[len(out)-n:]
	}
	return strings.Join(out, "\n")
}

// lineLimit reads r and fails once a line is longer than max bytes. A
// stdio process sends one JSON-RPC message a line, and the reader above
// (mcp-go's) holds a line whole: this bounds what it holds.
type lineLimit struct {
	r    io.Reader
	max  int64
	line int64 // bytes of the current line so far
	hit  atomic.Bool
}

func (l *lineLimit) Read(p []byte) (int, error) {
	if l.hit.Load() {
		return 0, &TooLargeError{Limit: l.max}
	}
	n, err := l.r.Read(p)
	for i := 0; i < n; {
		end := bytes.IndexByte(p[i:n], '\n')
		seg := n - i // bytes of the current line in what was read
		if end >= 0 {
			seg = end
		}
		if l.line+int64(seg) > l.max {
			// Pass what fits; the next Read fails.
			l.hit.Store(true)
			if k := i + int(l.max-l.line); k > 0 {
				return k, nil
			}
			return 0, &TooLargeError{Limit: l.max}
		}
		if end < 0 {
			l.line += int64(seg)
			break
		}
		l.line, i = 0, i+end+1
	}
	return n, err
}

func (l *lineLimit) exceeded() bool { return l.hit.Load() }
