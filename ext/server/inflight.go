package server

import (
	"fmt"
	"net/http"

	"github.com/mcpsearch/mcpsearch/ext"
)

// DefaultMaxInFlight bounds the requests one Handler serves at once unless
// configured: at the few MB the worst allowed request allocates, 64 of
// them hold well under half a GB.
const DefaultMaxInFlight = 64

// inFlight counts the requests being served and refuses one past its
// limit at once, rather than queueing it: a queue would only make every
// answer late.
type inFlight chan struct{}

func newInFlight(limit int) inFlight { return make(inFlight, limit) }

// acquire takes a slot, or reports that none is free.
func (f inFlight) acquire() bool {
	select {
	case f <- struct{}{}:
		return true
	default:
		return false
	}
}

func (f inFlight) release() { <-f }

// writeOverloaded answers a request past the limit: HTTP 503 with
// Retry-After, in every protocol era (it is the transport's refusal, as
// 413 is), and -32011 in the body.
func (h *Handler) writeOverloaded(w http.ResponseWriter) {
	w.Header().Set("Retry-After", "1")
	h.writeError(w, nil, fmt.Errorf("%w: %d requests are in flight, the limit of this server; retry in a second",
		ext.ErrOverloaded, cap(h.inFlight)), http.StatusServiceUnavailable)
}
