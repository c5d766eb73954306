// Command search is the mcpsearch Lambda function and local server: it
// opens a prebuilt index bundle once at start and answers MCP search and
// list requests from it, statelessly.
//
// Under Lambda (AWS_LAMBDA_RUNTIME_API set) it serves Function URL and HTTP
// API (v2) events; elsewhere it serves plain HTTP on MCPSEARCH_ADDR. Its
// whole configuration comes from the environment, read once and strictly
// in config.go; the gateway (gateway.go) forwards tools/call, prompts/get
// and resources/read to the upstream a catalog server names, with the
// credentials upstreams name as ${VAR} read from the environment at call
// time.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/server"
	"github.com/mcpsearch/mcpsearch/index"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	if len(os.Args) > 1 {
		os.Exit(commandLine(os.Args[1:], os.Stdout, os.Stderr))
	}
	pause := pauseCollector()
	if run(os.LookupEnv, os.Stderr, pause) != nil {
		os.Exit(1)
	}
}

// run starts the function with the environment lookup, logging to w, and
// serves until stopped. A start that fails is logged and, in Lambda,
// reported to the runtime API as an init error: every configuration error
// is found before the function serves. It resumes the paused collector
// (nil: none) once the first answer is out in Lambda, before serving
// locally, and before building a bundle at start-up.
//
// Locally it binds MCPSEARCH_ADDR first, so that a port in use stops it
// before it spends seconds building an index.
func run(lookup lookupFunc, w io.Writer, pause *collectorPause) error {
	cfg, err := readConfig(lookup)
	logger := newLogger(cfg.LogLevel, w)
	var ln net.Listener
	if err == nil && !cfg.inLambda() {
		ln, err = listenLocal(cfg.Addr)
	}
	var fn *function
	if err == nil {
		cfg, fn, err = start(cfg, lookup, logger, pause)
	}
	if err == nil && ln != nil && cfg.Addr != boundAs(ln) {
		// The secret set another MCPSEARCH_ADDR.
		ln.Close()
		ln, err = listenLocal(cfg.Addr)
		if err != nil {
			fn.Close()
		}
	}
	if err != nil {
		if ln != nil {
			ln.Close()
		}
		if cfg.inLambda() {
			reportInitError(cfg.RuntimeAPI, err, logger)
		}
		logger.Error("mcpsearch stopped", "err", err)
		return err
	}
	defer fn.Close()
	if cfg.inLambda() {
		lambda.Start(resumingAfterFirstAnswer(pause.resume, lambdaHandler(fn.service)))
		return nil
	}
	pause.resume()
	if err := serveLocal(ln, fn.service, fn.idx, logger); err != nil {
		logger.Error("mcpsearch stopped", "err", err)
		return err
	}
	return nil
}

// function is a started function: its index and its handler.
type function struct {
	idx     *index.Index
	service *service
}

func (f *function) Close() error {
	f.service.Close()
	return f.idx.Close()
}

// start does what comes before serving: it loads the secret (whose
// entries may set variables, so the configuration is read again), checks
// the configuration, opens the index and wires the handler.
func start(cfg *Config, lookup lookupFunc, logger *slog.Logger, pause *collectorPause) (*Config, *function, error) {
	if cfg.SecretsARN != "" {
		if err := loadConfiguredSecrets(cfg, logger); err != nil {
			return cfg, nil, err
		}
		var err error
		if cfg, err = readConfig(lookup); err != nil {
			return cfg, nil, err
		}
	}
	if err := cfg.check(); err != nil {
		return cfg, nil, err
	}
	idx, err := openIndex(cfg, logger, pause)
	if err != nil {
		return cfg, nil, err
	}
	if err := wireHosted(cfg, idx, logger); err != nil {
		idx.Close()
		return cfg, nil, err
	}
	svc, err := newHandler(cfg, idx, logger)
	if err != nil {
		idx.Close()
		return cfg, nil, err
	}
	return cfg, &function{idx: idx, service: svc}, nil
}

// loadConfiguredSecrets loads the secret MCPSEARCH_SECRETS_ARN names into
// the environment, reading it with the function's own credentials.
func loadConfiguredSecrets(cfg *Config, logger *slog.Logger) error {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	src := secretsSource{creds: cfg.AWS, client: &http.Client{Timeout: 5 * time.Second}}
	set, err := loadSecrets(ctx, cfg.SecretsARN, src)
	if err != nil {
		return err
	}
	logger.Info("secrets loaded into the environment", "arn", cfg.SecretsARN, "variables", set)
	return nil
}

// openIndex opens the configured bundle; locally, without one, it builds
// (or reuses) the bundle of a catalog, with the collector resumed (a build
// allocates far more than it keeps).
func openIndex(cfg *Config, logger *slog.Logger, pause *collectorPause) (*index.Index, error) {
	dir := cfg.Index
	if dir == "" && (!cfg.inLambda() || cfg.Catalog != "") {
		// Build at start-up (cached): the local default, and in Lambda the
		// slow alternative to a bundled index that bench coldstart measures.
		pause.resume()
		lib, err := libraryOf(!cfg.LibraryOff)
		if err != nil {
			return nil, err
		}
		if dir, err = cachedBundleWith(cfg.Catalog, cfg.CacheDir, lib, os.Stderr); err != nil {
			return nil, err
		}
	}
	if dir == "" {
		dir = filepath.Join(cfg.TaskRoot, "index")
	}
	start := time.Now()
	idx, err := index.Open(dir)
	if err != nil {
		return nil, err
	}
	if err := idx.SetRulesOff(cfg.RulesOff...); err != nil {
		idx.Close()
		return nil, fmt.Errorf("MCPSEARCH_RULES_OFF: %w", err)
	}
	if len(cfg.RulesOff) > 0 {
		logger.Info("retrieval rules off", "rules", cfg.RulesOff)
	}
	m := idx.Manifest()
	logger.Info("index open", "dir", dir, "version", m.IndexVersion, "build", m.Build, "rules", index.QueryID, "tools", m.Counts[ext.KindTool],
		"prompts", m.Counts[ext.KindPrompt], "resources", m.Counts[ext.KindResource],
		"templates", m.Counts[ext.KindResourceTemplate], "ms", time.Since(start).Milliseconds())
	return idx, nil
}

// service is the function's HTTP handler; Close ends what the gateway
// started (the processes of stdio upstreams).
type service struct {
	*http.ServeMux
	caller io.Closer
}

func (s *service) Close() error { return s.caller.Close() }

// newHandler wires the extension server at /mcp and, if on, the playground
// at /.
func newHandler(cfg *Config, idx *index.Index, logger *slog.Logger) (*service, error) {
	opts := &server.Options{Version: version, Logger: logger, CursorKey: idx.CursorKey(), PageSize: cfg.PageSize,
		DirectoryChars: cfg.DirectoryChars, MaxInFlight: cfg.MaxInFlight, MaxResponseBytes: cfg.ResponseMaxBytes}
	if cfg.CursorKey != nil {
		opts.CursorKey = cfg.CursorKey
	}
	caller, err := gatewayOptions(cfg, idx, opts, logger)
	if err != nil {
		return nil, err
	}
	mux := http.NewServeMux()
	if err := withAuth(mux, "/mcp", server.New(idx, opts), cfg, logger); err != nil {
		caller.Close()
		return nil, err
	}
	mountPlayground(mux, cfg.Playground)
	return &service{ServeMux: mux, caller: caller}, nil
}

// listenLocal binds addr (MCPSEARCH_ADDR); its error names the variable.
func listenLocal(addr string) (net.Listener, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("MCPSEARCH_ADDR=%s: %w (set MCPSEARCH_ADDR to a free host:port)", addr, err)
	}
	ln = &namedListener{Listener: ln, asked: addr}
	return ln, nil
}

// namedListener remembers the address it was asked to bind (":0" binds
// another one), so that run rebinds only for another MCPSEARCH_ADDR.
type namedListener struct {
	net.Listener
	asked string
}

func boundAs(ln net.Listener) string {
	if n, ok := ln.(*namedListener); ok {
		return n.asked
	}
	return ""
}

// serveLocal logs that it serves on ln, bound already, and serves plain
// HTTP until SIGINT or SIGTERM.
func serveLocal(ln net.Listener, h http.Handler, idx *index.Index, logger *slog.Logger) error {
	srv := newLocalServer(ln.Addr().String(), h)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	}()
	logger.Info("serving MCP", "url", "http://"+ln.Addr().String()+"/mcp", "index", idx.Version())
	if err := srv.Serve(ln); !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// localReadTimeout bounds the reading of a whole request, body included,
// so that a client sending slowly cannot hold a connection open.
var localReadTimeout = 30 * time.Second

func newLocalServer(addr string, h http.Handler) *http.Server {
	return &http.Server{Addr: addr, Handler: h, ReadHeaderTimeout: 10 * time.Second,
		ReadTimeout: localReadTimeout, IdleTimeout: 2 * time.Minute}
}

func newLogger(level slog.Level, w io.Writer) *slog.Logger {
	return slog.New(slog.NewJSONHandler(w, &slog.HandlerOptions{Level: level}))
}
