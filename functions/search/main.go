// Command search is the mcpsearch Lambda function and local server: it
// opens a prebuilt index bundle once at start and answers MCP search and
// list requests from it, statelessly.
//
// Under Lambda (AWS_LAMBDA_RUNTIME_API set) it serves Function URL and HTTP
// API (v2) events; elsewhere it serves plain HTTP on MCPSEARCH_ADDR. All
// configuration is read here, from the environment:
//
//	MCPSEARCH_INDEX       bundle directory (Lambda default: $LAMBDA_TASK_ROOT/index)
//	MCPSEARCH_CATALOG     without MCPSEARCH_INDEX: a catalog directory to build (once,
//	                      cached) and serve; locally the default is the bundled catalog
//	MCPSEARCH_CACHE_DIR   where local builds are cached (default: the user cache dir)
//	MCPSEARCH_ADDR        local listen address (default 127.0.0.1:8080)
//	MCPSEARCH_PAGE_SIZE   items per list page (default 100)
//	MCPSEARCH_CURSOR_KEY  hex key that signs cursors (default: the bundle's own key)
//	MCPSEARCH_LOG_LEVEL   debug, info, warn or error (default info)
//	MCPSEARCH_PLAYGROUND  on or off: the search playground page at / (default: on
//	                      locally, off in Lambda)
//
// The gateway (see gateway.go) forwards tools/call, prompts/get and
// resources/read to the upstream a catalog server names:
//
//	MCPSEARCH_UPSTREAM_TIMEOUT      bound on one upstream call (default 30s)
//	MCPSEARCH_UPSTREAM_MAX_BYTES    bound on one upstream answer (default 3000000)
//	MCPSEARCH_LIST_MODE             full, meta or auto: what tools/list answers (default full)
//	MCPSEARCH_ALWAYS_TOOLS          meta mode: canonical tool names listed beside the meta tools
//	MCPSEARCH_META_THRESHOLD_CHARS  auto mode: meta above this many characters of tool JSON (default 50000)
//	MCPSEARCH_SECRETS_ARN           an AWS Secrets Manager secret (a JSON object of strings)
//	                                loaded into unset environment variables at start
//	<any variable an upstream names as ${VAR}>  credentials, read at call time
//
// Authentication and per-caller visibility: MCPSEARCH_AUTH and the
// MCPSEARCH_BEARER_* and MCPSEARCH_JWT_* settings, described in auth.go.
package main

import (
	"cmp"
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"syscall"
	"time"

	"github.com/aws/aws-lambda-go/lambda"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "dev"

func main() {
	logger := newLogger(os.Getenv("MCPSEARCH_LOG_LEVEL"))
	if err := run(logger); err != nil {
		logger.Error("mcpsearch stopped", "err", err)
		os.Exit(1)
	}
}

func run(logger *slog.Logger) error {
	runtimeAPI := os.Getenv("AWS_LAMBDA_RUNTIME_API")
	inLambda := runtimeAPI != ""
	if err := loadConfiguredSecrets(logger); err != nil {
		if inLambda {
			reportInitError(runtimeAPI, err, logger)
		}
		return err
	}
	addr := cmp.Or(os.Getenv("MCPSEARCH_ADDR"), "127.0.0.1:8080")
	if _, err := authMode(inLambda, addr); err != nil {
		if inLambda {
			reportInitError(runtimeAPI, err, logger)
		}
		return err
	}
	idx, err := openIndex(inLambda, logger)
	if err != nil {
		if inLambda {
			reportInitError(runtimeAPI, err, logger)
		}
		return err
	}
	defer idx.Close()
	handler, err := newHandler(idx, logger)
	if err != nil {
		return err
	}
	defer handler.Close()
	if inLambda {
		lambda.Start(lambdaHandler(handler))
		return nil
	}
	return serveLocal(addr, handler, idx, logger)
}

// loadConfiguredSecrets loads MCPSEARCH_SECRETS_ARN, if set, into the
// environment.
func loadConfiguredSecrets(logger *slog.Logger) error {
	arn := os.Getenv("MCPSEARCH_SECRETS_ARN")
	if arn == "" {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	set, err := loadSecrets(ctx, arn, lambdaSecretsSource())
	if err != nil {
		return err
	}
	logger.Info("secrets loaded into the environment", "arn", arn, "variables", set)
	return nil
}

// openIndex opens the configured bundle; locally, without one, it builds
// (or reuses) the bundle of a catalog.
func openIndex(inLambda bool, logger *slog.Logger) (*index.Index, error) {
	dir, catalog := os.Getenv("MCPSEARCH_INDEX"), os.Getenv("MCPSEARCH_CATALOG")
	if dir == "" && (!inLambda || catalog != "") {
		// Build at start-up (cached): the local default, and in Lambda the
		// slow alternative to a bundled index that bench coldstart measures.
		var err error
		if dir, err = cachedBundle(catalog, os.Getenv("MCPSEARCH_CACHE_DIR"), os.Stderr); err != nil {
			return nil, err
		}
	}
	if dir == "" {
		dir = filepath.Join(cmp.Or(os.Getenv("LAMBDA_TASK_ROOT"), "/var/task"), "index")
	}
	start := time.Now()
	idx, err := index.Open(dir)
	if err != nil {
		return nil, err
	}
	m := idx.Manifest()
	logger.Info("index open", "dir", dir, "version", m.IndexVersion, "tools", m.Counts[ext.KindTool],
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
func newHandler(idx *index.Index, logger *slog.Logger) (*service, error) {
	opts := &ext.Options{Version: version, Logger: logger, CursorKey: idx.CursorKey()}
	if s := os.Getenv("MCPSEARCH_PAGE_SIZE"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 || n > ext.MaxPageSize {
			return nil, fmt.Errorf("MCPSEARCH_PAGE_SIZE=%q: want a whole number from 1 to %d", s, ext.MaxPageSize)
		}
		opts.PageSize = n
	}
	if s := os.Getenv("MCPSEARCH_CURSOR_KEY"); s != "" {
		key, err := hex.DecodeString(s)
		if err != nil || len(key) < 16 {
			return nil, fmt.Errorf("MCPSEARCH_CURSOR_KEY: want at least 16 bytes in hex")
		}
		opts.CursorKey = key
	}
	caller, err := gatewayOptions(idx, opts, logger)
	if err != nil {
		return nil, err
	}
	if opts.Meta != nil {
		logger.Info("meta-tool mode: tools/list answers search_tools, call_tool and the always-listed tools")
	}
	mux := http.NewServeMux()
	if err := withAuth(mux, "/mcp", ext.NewServer(idx, opts), logger); err != nil {
		caller.Close()
		return nil, err
	}
	if err := mountPlayground(mux); err != nil {
		caller.Close()
		return nil, err
	}
	return &service{ServeMux: mux, caller: caller}, nil
}

// serveLocal serves plain HTTP until SIGINT or SIGTERM.
func serveLocal(addr string, h http.Handler, idx *index.Index, logger *slog.Logger) error {
	srv := newLocalServer(addr, h)
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() {
		<-ctx.Done()
		shutdown, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		srv.Shutdown(shutdown)
	}()
	logger.Info("serving MCP", "url", "http://"+addr+"/mcp", "index", idx.Version())
	if err := srv.ListenAndServe(); !errors.Is(err, http.ErrServerClosed) {
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

func newLogger(level string) *slog.Logger {
	var l slog.Level
	if err := l.UnmarshalText([]byte(cmp.Or(level, "info"))); err != nil {
		l = slog.LevelInfo
	}
	return slog.New(slog.NewJSONHandler(os.Stderr, &slog.HandlerOptions{Level: l}))
}
