package main

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

func TestPlaygroundFlag(t *testing.T) {
	idx := mustIndex(t)
	for _, test := range []struct {
		name, runtimeAPI, flag string
		status                 int
	}{
		{"local default: on", "", "", http.StatusOK},
		{"local, off", "", "off", http.StatusNotFound},
		{"Lambda default: off", "127.0.0.1:9001", "", http.StatusNotFound},
		{"Lambda, on", "127.0.0.1:9001", "on", http.StatusOK},
	} {
		t.Run(test.name, func(t *testing.T) {
			cfg := mustConfig(t, map[string]string{"AWS_LAMBDA_RUNTIME_API": test.runtimeAPI, "MCPSEARCH_PLAYGROUND": test.flag, "MCPSEARCH_AUTH": "none"})
			h, err := newHandler(cfg, idx, quiet)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/", nil))
			if rec.Code != test.status {
				t.Errorf("GET /: got %d, want %d", rec.Code, test.status)
			}
			if test.status == http.StatusOK && !strings.Contains(rec.Body.String(), "mcpsearch") {
				t.Errorf("GET /: got %q, want the playground page", rec.Body.String())
			}
		})
	}
}
