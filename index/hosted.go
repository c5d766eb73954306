package index

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/bundle"
	"github.com/mcpsearch/mcpsearch/index/internal/hosted"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval"
	"github.com/mcpsearch/mcpsearch/index/internal/vectors"
)

// Hosted vectors (hosted.bin, package internal/hosted) are an option: a
// bundle built with BuildOptions.Hosted holds, beside its word vectors,
// each item's vector from a hosted embeddings model the operator chose.
// A server that configures the same model (Index.UseHosted) embeds each
// query with it, within HostedOptions.Timeout, and the hosted cosine takes
// the word vectors' place in the dense part of the ranking. When the
// query's vector cannot be had — no embedder configured, an error, a late
// answer, an answer of other dimensions — the search ranks with the word
// vectors exactly as a bundle without hosted vectors does, says so in its
// explanations (Explanation.Vectors), counts it (HostedStats) and tells
// HostedOptions.OnFallback; the caller never gets an error for it.
//
// Package index makes no call itself (it imports no net/http): the
// embedding is the caller's function (package embed's client).

// HostedModel is what embedded a bundle's items (bundle.HostedModel).
type HostedModel = bundle.HostedModel

// HostedItems embeds a catalog's items at build time (BuildOptions.Hosted;
// bundle.HostedItems).
type HostedItems = bundle.HostedItems

// DefaultHostedTimeout bounds a query's embedding when HostedOptions
// names no timeout.
const DefaultHostedTimeout = 250 * time.Millisecond

// DefaultHostedCache is how many query vectors are kept when
// HostedOptions names no size.
const DefaultHostedCache = 512

// HostedOptions configure UseHosted.
type HostedOptions struct {
	// Embed returns the vector of a query's text from the model that
	// embedded the bundle's items (embed.Client.EmbedQuery).
	Embed func(ctx context.Context, text string) ([]float32, error)
	// Timeout bounds each query's embedding. If zero, DefaultHostedTimeout.
	Timeout time.Duration
	// CacheSize is how many query vectors are kept, the least recently
	// used dropped first. If zero, DefaultHostedCache; negative: none.
	CacheSize int
	// OnFallback, if set, is told each time a query falls back to the
	// word vectors: why ("timeout" or "error") and the error (for the
	// operator's log: it may name the endpoint, never the key).
	OnFallback func(reason string, err error)
}

// HostedStats count what became of the queries of a bundle with hosted
// vectors since it opened.
type HostedStats struct {
	Hosted   uint64 // ranked with the hosted model's vector
	Cached   uint64 // of those, the vector from the cache
	Timeouts uint64 // fell back: no answer in time
	Errors   uint64 // fell back: the endpoint failed or answered badly
	Unwired  uint64 // fell back: no embedder configured
}

// hostedQueries is what UseHosted wires.
type hostedQueries struct {
	opts  HostedOptions
	cache *hosted.QueryCache
}

// hostedState is an index's hosted vectors and what it counts of them.
type hostedState struct {
	vectors                                 *hosted.Vectors // nil: the bundle has none
	use                                     atomic.Pointer[hostedQueries]
	hosted, cached, timeouts, errs, unwired atomic.Uint64
}

// HostedModel is the model that embedded the bundle's items, if the
// bundle has hosted vectors.
func (x *Index) HostedModel() (HostedModel, bool) {
	if x.hosted.vectors == nil {
		return HostedModel{}, false
	}
	return HostedModel(x.hosted.vectors.Model()), true
}

// UseHosted has searches embed their queries with opts.Embed; it is an
// error when the bundle has no hosted vectors. It may be called once
// before serving.
func (x *Index) UseHosted(opts HostedOptions) error {
	if x.hosted.vectors == nil {
		return fmt.Errorf("index %s: the bundle has no hosted vectors (build it with an embeddings endpoint)", x.dir)
	}
	if opts.Embed == nil {
		return errors.New("index: UseHosted without an Embed function")
	}
	if opts.Timeout <= 0 {
		opts.Timeout = DefaultHostedTimeout
	}
	if opts.CacheSize == 0 {
		opts.CacheSize = DefaultHostedCache
	}
	x.hosted.use.Store(&hostedQueries{opts: opts, cache: hosted.NewQueryCache(max(0, opts.CacheSize))})
	return nil
}

// HostedStats are the counts of the queries ranked with hosted vectors
// and of those that fell back (all zero for a bundle without them).
func (x *Index) HostedStats() HostedStats {
	h := &x.hosted
	return HostedStats{Hosted: h.hosted.Load(), Cached: h.cached.Load(), Timeouts: h.timeouts.Load(),
		Errors: h.errs.Load(), Unwired: h.unwired.Load()}
}

// hostedQuery is retrieval.Bundle.HostedQuery: the hosted vector of a
// query's text, or nil and why the word vectors serve.
func (x *Index) hostedQuery(ctx context.Context, text string) (retrieval.DenseQuery, string) {
	h := &x.hosted
	if h.vectors == nil {
		return nil, ""
	}
	use := h.use.Load()
	if use == nil {
		h.unwired.Add(1)
		return nil, "word vectors (the bundle has hosted vectors, the server embeds no queries)"
	}
	key := cacheKey(h.vectors.Model().Name, ext.AccessFrom(ctx), text)
	if q, ok := use.cache.Get(key); ok {
		h.hosted.Add(1)
		h.cached.Add(1)
		return hostedQuery{h.vectors, q}, "hosted " + h.vectors.Model().String()
	}
	q, err := x.embedQuery(ctx, use.opts, text)
	if err != nil {
		return nil, x.fellBack(use.opts, err)
	}
	use.cache.Put(key, q)
	h.hosted.Add(1)
	return hostedQuery{h.vectors, q}, "hosted " + h.vectors.Model().String()
}

// fellBack counts a query whose vector err kept from coming, tells
// opts.OnFallback, and returns the explanation's note.
func (x *Index) fellBack(opts HostedOptions, err error) string {
	reason, note := "error", "the endpoint failed"
	if errors.Is(err, context.DeadlineExceeded) {
		reason, note = "timeout", "no answer within "+opts.Timeout.String()
		x.hosted.timeouts.Add(1)
	} else {
		x.hosted.errs.Add(1)
	}
	if opts.OnFallback != nil {
		opts.OnFallback(reason, err)
	}
	return "word vectors (the hosted query's vector: " + note + ")"
}

// embedQuery asks for the vector of text within opts.Timeout.
func (x *Index) embedQuery(ctx context.Context, opts HostedOptions, text string) (*hosted.Query, error) {
	ctx, cancel := context.WithTimeout(ctx, opts.Timeout)
	defer cancel()
	vec, err := opts.Embed(ctx, text)
	if err == nil && ctx.Err() != nil {
		err = ctx.Err() // an embedder that answered past the deadline
	}
	if err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) && !errors.Is(err, context.DeadlineExceeded) {
			err = fmt.Errorf("%w: %w", context.DeadlineExceeded, err) // an embedder that hides the deadline
		}
		return nil, err
	}
	return x.hosted.vectors.Query(vec)
}

// hostedQuery is a query vector of the hosted model.
type hostedQuery struct {
	v *hosted.Vectors
	q *hosted.Query
}

func (h hostedQuery) Nearest(kind ext.Kind, k int, keep func(ord int) bool) ([]vectors.Hit, error) {
	return h.v.Nearest(kind, h.q, k, keep)
}

func (h hostedQuery) Cosines(kind ext.Kind, ords []int) ([]float32, error) {
	return h.v.Cosines(kind, h.q, ords)
}

// cacheKey is where a query's vector is cached: by model, by the caller's
// access (all, groups, scopes) and by text. A search answered from the
// cache is faster than one that calls the endpoint, so a shared entry
// would tell a caller that another searched the same text; keyed by
// access, it can tell only of callers of the same groups and scopes,
// who see the same items (index README, "Hosted vectors").
func cacheKey(model string, a ext.Access, text string) string {
	var b strings.Builder
	field := func(s string) { // length first: no value can pass for two
		b.WriteString(strconv.Itoa(len(s)))
		b.WriteByte(':')
		b.WriteString(s)
	}
	field(model)
	field(strconv.FormatBool(a.All))
	for _, list := range [][]string{a.Groups, a.Scopes} {
		b.WriteString(strconv.Itoa(len(list)))
		for _, s := range list {
			field(s)
		}
	}
	field(text)
	return b.String()
}
