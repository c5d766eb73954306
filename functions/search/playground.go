package main

import (
	"net/http"

	"github.com/mcpsearch/mcpsearch/functions/search/playground"
)

// mountPlayground serves the search playground at / when on
// (MCPSEARCH_PLAYGROUND: on by default locally, off in Lambda).
func mountPlayground(mux *http.ServeMux, on bool) {
	if on {
		mux.Handle("/", playground.Handler())
	}
}
