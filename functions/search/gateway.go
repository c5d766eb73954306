package main

import (
	"cmp"
	"context"
	"fmt"
	"log/slog"
	"slices"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/server"
	"github.com/mcpsearch/mcpsearch/ext/upstream"
	"github.com/mcpsearch/mcpsearch/index"
)

// gatewayOptions puts the gateway's configuration into opts: the
// upstream caller (returned, to be closed) and its timeout, and the list
// mode, checked against the index.
func gatewayOptions(cfg *Config, idx *index.Index, opts *server.Options, logger *slog.Logger) (*upstream.Caller, error) {
	caller := upstream.New(&upstream.Options{Getenv: cfg.Env, AllowStdio: !cfg.inLambda(), Version: version,
		MaxResultBytes: cfg.UpstreamMaxBytes, Logger: logger})
	opts.Caller = caller
	opts.UpstreamTimeout = cfg.UpstreamTimeout
	var servers []string
	if needsCallableServers(cfg) {
		var err error
		if servers, err = callableServers(idx, cfg.inLambda()); err != nil {
			caller.Close()
			return nil, err
		}
	}
	meta := server.MetaOptions{Mode: cfg.ListMode, Always: cfg.AlwaysTools, Proxy: len(servers) > 0, Servers: servers,
		ThresholdChars: cfg.MetaThresholdChars, Logger: logger}
	var err error
	if opts.Meta, err = server.NewMetaTools(context.Background(), idx, meta); err != nil {
		caller.Close()
		return nil, fmt.Errorf("MCPSEARCH_LIST_MODE, MCPSEARCH_ALWAYS_TOOLS: %w", err)
	}
	if opts.Meta == nil && len(meta.Always) > 0 {
		logger.Warn("MCPSEARCH_ALWAYS_TOOLS is set, but tools/list lists every tool (list mode full): search_tools and call_tool are not offered",
			"hint", "set MCPSEARCH_LIST_MODE=meta, or a lower MCPSEARCH_META_THRESHOLD_CHARS for auto")
	}
	warnUncallable(idx, meta.Always, servers, logger)
	return caller, nil
}

// needsCallableServers reports whether the start needs the servers with a
// reachable upstream: for call_tool, which the meta and auto list modes
// may offer, and to warn of always-listed tools that cannot be called. In
// list mode full without always-listed tools (the default) it does not,
// and the start reads no list of servers (index.Index.Servers), which a
// cold start at 100,000 tools paid 5–7 ms for before its first answer.
func needsCallableServers(cfg *Config) bool {
	return cmp.Or(cfg.ListMode, server.ListFull) != server.ListFull || len(cfg.AlwaysTools) > 0
}

// callableServers lists the servers of the index with an upstream this
// process can reach: any streamable HTTP one, and stdio ones outside Lambda.
func callableServers(idx *index.Index, inLambda bool) ([]string, error) {
	all, err := idx.Servers()
	if err != nil {
		return nil, err
	}
	var out []string
	for _, s := range all {
		if len(s.Upstream) == 0 {
			continue
		}
		cfg, err := upstream.ParseConfig(s.Upstream)
		if err == nil && (cfg.Transport == upstream.TransportHTTP || !inLambda) {
			out = append(out, s.Name)
		}
	}
	return out, nil
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
