package main

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/upstream"
	"github.com/mcpsearch/mcpsearch/index"
)

// gatewayOptions reads the gateway's configuration into opts: the
// upstream caller (returned, to be closed) and its timeout, and the list
// mode.
func gatewayOptions(idx *index.Index, opts *ext.Options, logger *slog.Logger) (*upstream.Caller, error) {
	inLambda := os.Getenv("AWS_LAMBDA_RUNTIME_API") != ""
	maxResult, err := upstreamMaxBytes()
	if err != nil {
		return nil, err
	}
	caller := upstream.New(&upstream.Options{Getenv: os.LookupEnv, AllowStdio: !inLambda, Version: version,
		MaxResultBytes: maxResult, Logger: logger})
	opts.Caller = caller
	if s := os.Getenv("MCPSEARCH_UPSTREAM_TIMEOUT"); s != "" {
		d, err := time.ParseDuration(s)
		if err != nil || d <= 0 {
			return nil, fmt.Errorf("MCPSEARCH_UPSTREAM_TIMEOUT=%q: want a positive duration such as 30s", s)
		}
		opts.UpstreamTimeout = d
	}
	servers := callableServers(idx, inLambda)
	meta := ext.MetaOptions{
		Mode:    ext.ListMode(os.Getenv("MCPSEARCH_LIST_MODE")),
		Always:  splitList(os.Getenv("MCPSEARCH_ALWAYS_TOOLS")),
		Proxy:   len(servers) > 0,
		Servers: servers,
	}
	if s := os.Getenv("MCPSEARCH_META_THRESHOLD_CHARS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil || n < 1 {
			return nil, fmt.Errorf("MCPSEARCH_META_THRESHOLD_CHARS=%q: want a positive whole number", s)
		}
		meta.ThresholdChars = n
	}
	if opts.Meta, err = ext.NewMetaTools(context.Background(), idx, meta); err != nil {
		return nil, fmt.Errorf("MCPSEARCH_LIST_MODE, MCPSEARCH_ALWAYS_TOOLS: %w", err)
	}
	warnUncallable(idx, meta.Always, servers, logger)
	return caller, nil
}

// upstreamMaxBytes reads MCPSEARCH_UPSTREAM_MAX_BYTES: the most bytes
// read of one upstream answer (0: the default).
func upstreamMaxBytes() (int64, error) {
	s := os.Getenv("MCPSEARCH_UPSTREAM_MAX_BYTES")
	if s == "" {
		return 0, nil
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 1 {
		return 0, fmt.Errorf("MCPSEARCH_UPSTREAM_MAX_BYTES=%q: want a positive whole number of bytes", s)
	}
	return n, nil
}

// callableServers lists the servers of the index with an upstream this
// process can reach: any streamable HTTP one, and stdio ones outside Lambda.
func callableServers(idx *index.Index, inLambda bool) []string {
	var out []string
	for _, s := range idx.Manifest().Servers {
		if len(s.Upstream) == 0 {
			continue
		}
		cfg, err := upstream.ParseConfig(s.Upstream)
		if err == nil && (cfg.Transport == upstream.TransportHTTP || !inLambda) {
			out = append(out, s.Name)
		}
	}
	return out
}

// warnUncallable logs the always-listed tools whose server cannot be
// reached from here: clients see them but their calls fail.
func warnUncallable(idx *index.Index, names, callable []string, logger *slog.Logger) {
	for _, name := range names {
		t, err := idx.Resolve(ext.WithAccess(context.Background(), ext.Access{All: true}), ext.KindTool, name)
		if err == nil && !slices.Contains(callable, t.Server) {
			logger.Warn("an always-listed tool cannot be called: its server has no upstream reachable from here", "tool", name, "server", t.Server)
		}
	}
}

func splitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}
