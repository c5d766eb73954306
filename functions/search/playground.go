package main

import (
	"fmt"
	"net/http"
	"os"

	"github.com/mcpsearch/mcpsearch/functions/search/playground"
)

// mountPlayground serves the search playground at / when
// MCPSEARCH_PLAYGROUND is on: "on" or "off", on by default locally and off
// by default in Lambda.
func mountPlayground(mux *http.ServeMux) error {
	on := os.Getenv("AWS_LAMBDA_RUNTIME_API") == ""
	switch s := os.Getenv("MCPSEARCH_PLAYGROUND"); s {
	case "":
	case "on":
		on = true
	case "off":
		on = false
	default:
		return fmt.Errorf("MCPSEARCH_PLAYGROUND=%q: want on or off", s)
	}
	if on {
		mux.Handle("/", playground.Handler())
	}
	return nil
}
