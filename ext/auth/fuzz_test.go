package auth

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// FuzzAuthorization: no Authorization header a client can send gets past
// the bearer or jwt modes without the token, or makes them panic; every
// refusal is a 401 with a challenge, or, for a value that folds two
// credentials (a comma), a 400 with an invalid_request challenge.
func FuzzAuthorization(f *testing.F) {
	secret := []byte("0123456789abcdef0123456789abcdef-fuzz")
	v, err := NewJWTVerifier(JWTOptions{Issuer: testIssuer, Audience: testAudience, HS256Secret: secret})
	if err != nil {
		f.Fatal(err)
	}
	bearerCfg := Config{Mode: ModeBearer, Bearer: []BearerToken{{Groups: []string{"g"}}}} // the hash of no token a test sends
	modes := []Config{bearerCfg, {Mode: ModeJWT, JWT: v}}
	for _, seed := range []string{"", "Bearer ", "Bearer a.b.c", "bearer eyJhbGciOiJub25lIn0.e30.", "Basic x", "Bearer \x00"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, header string) {
		for _, cfg := range modes {
			p := &probe{}
			h, _ := New(cfg, p)
			r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1/mcp", nil)
			r.Header["Authorization"] = []string{header}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			want := http.StatusUnauthorized
			if strings.Contains(header, ",") {
				want = http.StatusBadRequest
			}
			if p.calls != 0 || w.Code != want || w.Header().Get("WWW-Authenticate") == "" {
				t.Fatalf("%s mode, header %q: got %d and %d calls, want %d with a challenge", cfg.Mode, header, w.Code, p.calls, want)
			}
		}
	})
}
