package auth

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/hex"
	"encoding/json"
	"encoding/pem"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"

	"github.com/mcpsearch/mcpsearch/ext"
)

const (
	testIssuer   = "https://idp.example.com/"
	testAudience = "mcpsearch"
)

// signer mints tokens with one key.
type signer struct {
	alg jose.SignatureAlgorithm
	key any // private key or HS256 secret
	kid string
}

func (s signer) token(t *testing.T, claims map[string]any) string {
	t.Helper()
	opts := (&jose.SignerOptions{}).WithType("JWT")
	if s.kid != "" {
		opts = opts.WithHeader("kid", s.kid)
	}
	sig, err := jose.NewSigner(jose.SigningKey{Algorithm: s.alg, Key: s.key}, opts)
	if err != nil {
		t.Fatal(err)
	}
	tok, err := jwt.Signed(sig).Claims(claims).Serialize()
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// claims are valid claims for the test issuer and audience, changed by
// edit.
func claims(edit func(map[string]any)) map[string]any {
	now := time.Now()
	c := map[string]any{
		"iss": testIssuer, "aud": testAudience, "sub": "alice",
		"exp": now.Add(time.Hour).Unix(), "nbf": now.Add(-time.Minute).Unix(), "iat": now.Unix(),
		"groups": []string{"red", "ops"}, "scope": "tools:read docs:read",
	}
	if edit != nil {
		edit(c)
	}
	return c
}

// keyFiles writes an RSA and an EC key as a JWKS file, and the EC key alone
// as a PEM public key file; it returns their signers and paths.
func keyFiles(t *testing.T) (rs, es signer, jwks, pemFile string) {
	t.Helper()
	rsaKey, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	ecKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	set := jose.JSONWebKeySet{Keys: []jose.JSONWebKey{
		{Key: &rsaKey.PublicKey, KeyID: "rsa-1", Algorithm: string(jose.RS256), Use: "sig"},
		{Key: &ecKey.PublicKey, KeyID: "ec-1", Algorithm: string(jose.ES256), Use: "sig"},
	}}
	dir := t.TempDir()
	data, _ := json.Marshal(set)
	jwks = filepath.Join(dir, "jwks.json")
	der, _ := x509.MarshalPKIXPublicKey(&ecKey.PublicKey)
	pemFile = filepath.Join(dir, "ec.pem")
	if os.WriteFile(jwks, data, 0o644) != nil || os.WriteFile(pemFile, pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: der}), 0o644) != nil {
		t.Fatal("writing key files")
	}
	return signer{jose.RS256, rsaKey, "rsa-1"}, signer{jose.ES256, ecKey, "ec-1"}, jwks, pemFile
}

// probe records what the middleware let through.
type probe struct {
	caller  Caller
	access  ext.Access
	subject string
	calls   int
}

func (p *probe) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	p.calls++
	p.caller, _ = CallerFrom(r.Context())
	p.access = ext.AccessFrom(r.Context())
	p.subject = ext.SubjectFromContext(r.Context())
}

func serve(t *testing.T, cfg Config, authorization string) (*httptest.ResponseRecorder, *probe) {
	t.Helper()
	p := &probe{}
	h, err := New(cfg, p)
	if err != nil {
		t.Fatal(err)
	}
	r := onListener("http://127.0.0.1:8080/mcp", "127.0.0.1:8080", "127.0.0.1:8080")
	if authorization != "" {
		r.Header.Set("Authorization", authorization)
	}
	w := httptest.NewRecorder()
	h.ServeHTTP(w, r)
	return w, p
}

const challengeBase = `Bearer resource_metadata="http://127.0.0.1:8080/.well-known/oauth-protected-resource"`

// TestModes: each mode lets exactly the valid requests through, with the
// caller's groups and scopes, and answers the others 401 with the Bearer
// challenge and nothing more.
func TestModes(t *testing.T) {
	rs, es, jwksFile, pemFile := keyFiles(t)
	secret := []byte("0123456789abcdef0123456789abcdef-test")
	hs := signer{alg: jose.HS256, key: secret}
	otherRSA, _ := rsa.GenerateKey(rand.Reader, 2048)
	forged := signer{jose.RS256, otherRSA, "rsa-1"} // right kid, wrong key
	verifier := func(o JWTOptions) *JWTVerifier {
		o.Issuer, o.Audience = testIssuer, testAudience
		v, err := NewJWTVerifier(o)
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	jwksCfg := Config{Mode: ModeJWT, JWT: verifier(JWTOptions{JWKSFile: jwksFile})}
	pemCfg := Config{Mode: ModeJWT, JWT: verifier(JWTOptions{KeyFile: pemFile})}
	hsCfg := Config{Mode: ModeJWT, JWT: verifier(JWTOptions{HS256Secret: secret})}
	tokenSum := sha256.Sum256([]byte("s3cret-token"))
	bearerCfg := Config{Mode: ModeBearer, Bearer: mustParseBearer(t, hex.EncodeToString(tokenSum[:])+"=red|ops,"+strings.Repeat("ab", 32))}
	alice := Caller{Subject: "alice", Groups: []string{"red", "ops"}, Scopes: []string{"tools:read", "docs:read"}}

	bearer := func(s signer, edit func(map[string]any)) string { return "Bearer " + s.token(t, claims(edit)) }
	expired := func(c map[string]any) { c["exp"] = time.Now().Add(-time.Hour).Unix() }
	notYet := func(c map[string]any) { c["nbf"] = time.Now().Add(time.Hour).Unix() }
	wrongAud := func(c map[string]any) { c["aud"] = "another-service" }
	wrongIss := func(c map[string]any) { c["iss"] = "https://evil.example.com/" }
	noExp := func(c map[string]any) { delete(c, "exp") }

	for _, test := range []struct {
		name          string
		cfg           Config
		authorization string
		want          *Caller // nil: refused
		invalid       bool    // the challenge says invalid_token
	}{
		{"none", Config{Mode: ModeNone}, "", &Caller{}, false},
		{"bearer valid", bearerCfg, "Bearer s3cret-token", &Caller{Subject: "bearer:" + hex.EncodeToString(tokenSum[:4]), Groups: []string{"red", "ops"}}, false},
		{"bearer wrong token", bearerCfg, "Bearer s3cret-tokeN", nil, true},
		{"bearer missing", bearerCfg, "", nil, false},
		{"bearer not bearer", bearerCfg, "Basic czNjcmV0LXRva2Vu", nil, true},
		{"jwt RS256 valid", jwksCfg, bearer(rs, nil), &alice, false},
		{"jwt ES256 valid", jwksCfg, bearer(es, nil), &alice, false},
		{"jwt ES256 valid with a PEM key", pemCfg, bearer(signer{es.alg, es.key, ""}, nil), &alice, false},
		{"jwt HS256 valid", hsCfg, bearer(hs, nil), &alice, false},
		{"jwt RS256 expired", jwksCfg, bearer(rs, expired), nil, true},
		{"jwt ES256 expired", jwksCfg, bearer(es, expired), nil, true},
		{"jwt HS256 expired", hsCfg, bearer(hs, expired), nil, true},
		{"jwt RS256 not yet valid", jwksCfg, bearer(rs, notYet), nil, true},
		{"jwt RS256 wrong audience", jwksCfg, bearer(rs, wrongAud), nil, true},
		{"jwt ES256 wrong audience", jwksCfg, bearer(es, wrongAud), nil, true},
		{"jwt HS256 wrong audience", hsCfg, bearer(hs, wrongAud), nil, true},
		{"jwt RS256 wrong issuer", jwksCfg, bearer(rs, wrongIss), nil, true},
		{"jwt ES256 wrong issuer", pemCfg, bearer(es, wrongIss), nil, true},
		{"jwt HS256 wrong issuer", hsCfg, bearer(hs, wrongIss), nil, true},
		{"jwt RS256 wrong signature", jwksCfg, bearer(forged, nil), nil, true},
		{"jwt ES256 wrong signature", pemCfg, bearer(signer{jose.ES256, mustEC(t), ""}, nil), nil, true},
		{"jwt HS256 wrong secret", hsCfg, bearer(signer{jose.HS256, []byte("another secret of at least 32 bytes!!"), ""}, nil), nil, true},
		{"jwt HS256 against public keys", jwksCfg, bearer(hs, nil), nil, true},
		{"jwt without exp", hsCfg, bearer(hs, noExp), nil, true},
		{"jwt garbage", hsCfg, "Bearer not.a.jwt", nil, true},
		{"jwt missing", jwksCfg, "", nil, false},
	} {
		t.Run(test.name, func(t *testing.T) {
			w, p := serve(t, test.cfg, test.authorization)
			if test.want == nil {
				checkRefused(t, w, p, test.invalid)
				return
			}
			if w.Code != http.StatusOK || p.calls != 1 {
				t.Fatalf("got status %d and %d calls, want the request through", w.Code, p.calls)
			}
			if test.cfg.Mode == ModeNone {
				if !p.access.All {
					t.Errorf("got access %+v, want All", p.access)
				}
				return
			}
			if !reflect.DeepEqual(p.caller, *test.want) {
				t.Errorf("got caller %+v, want %+v", p.caller, *test.want)
			}
			if p.subject != test.want.Subject {
				t.Errorf("the request log would name subject %q, want %q", p.subject, test.want.Subject)
			}
			if p.access.All || !sameSet(p.access.Groups, test.want.Groups) || !sameSet(p.access.Scopes, test.want.Scopes) {
				t.Errorf("got access %+v, want the caller's groups and scopes", p.access)
			}
		})
	}
}

func checkRefused(t *testing.T, w *httptest.ResponseRecorder, p *probe, invalid bool) {
	t.Helper()
	if w.Code != http.StatusUnauthorized || p.calls != 0 {
		t.Fatalf("got status %d and %d calls, want 401 and none", w.Code, p.calls)
	}
	want := challengeBase
	if invalid {
		want += `, error="invalid_token"`
	}
	if got := w.Header().Get("WWW-Authenticate"); got != want {
		t.Errorf("got WWW-Authenticate %q, want %q", got, want)
	}
	if body := strings.TrimSpace(w.Body.String()); body != "unauthorized" {
		t.Errorf("got body %q, want only \"unauthorized\"", body)
	}
}

func mustEC(t *testing.T) *ecdsa.PrivateKey {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func mustParseBearer(t *testing.T, spec string) []BearerToken {
	t.Helper()
	tokens, err := ParseBearer(spec)
	if err != nil {
		t.Fatal(err)
	}
	return tokens
}

func sameSet(a, b []string) bool {
	seen := map[string]bool{}
	for _, s := range a {
		seen[s] = true
	}
	for _, s := range b {
		if !seen[s] {
			return false
		}
	}
	return len(seen) == len(b)
}

// TestBadConfig: settings that cannot work are refused when the middleware
// is made, naming what is wrong.
func TestBadConfig(t *testing.T) {
	_, _, jwksFile, _ := keyFiles(t)
	for _, test := range []struct {
		name string
		err  func() error
		want string
	}{
		{"bearer hash too short", func() error { _, err := ParseBearer("abcd=red"); return err }, "entry 1: want 64 hex digits"},
		{"bearer empty", func() error { _, err := ParseBearer(" , "); return err }, "no token hash"},
		{"jwt without audience", func() error {
			_, err := NewJWTVerifier(JWTOptions{Issuer: testIssuer, JWKSFile: jwksFile})
			return err
		}, "issuer and the audience"},
		{"jwt two keys", func() error {
			_, err := NewJWTVerifier(JWTOptions{Issuer: testIssuer, Audience: testAudience, JWKSFile: jwksFile, HS256Secret: []byte(strings.Repeat("x", 32))})
			return err
		}, "exactly one"},
		{"jwt short secret", func() error {
			_, err := NewJWTVerifier(JWTOptions{Issuer: testIssuer, Audience: testAudience, HS256Secret: []byte("short")})
			return err
		}, "at least 32 bytes"},
		{"jwt missing JWKS file", func() error {
			_, err := NewJWTVerifier(JWTOptions{Issuer: testIssuer, Audience: testAudience, JWKSFile: filepath.Join(t.TempDir(), "none.json")})
			return err
		}, "JWKS file"},
		{"unknown mode", func() error { _, err := New(Config{Mode: "open"}, http.NotFoundHandler()); return err }, `auth mode "open"`},
	} {
		t.Run(test.name, func(t *testing.T) {
			if err := test.err(); err == nil || !strings.Contains(err.Error(), test.want) {
				t.Errorf("got %v, want an error containing %q", err, test.want)
			}
		})
	}
}

// TestAWS: the identity an authorizer established, from the context.
func TestAWS(t *testing.T) {
	cfg := Config{Mode: ModeAWS, GroupsClaim: "cognito:groups", Resource: Resource{HostTrusted: true}} // Lambda sets the Host
	for _, test := range []struct {
		name string
		id   *AWSIdentity
		want *Caller
	}{
		{"jwt claims, bracketed list", &AWSIdentity{JWTClaims: map[string]string{"sub": "bob", "cognito:groups": "[blue ops]", "scope": "docs:read"}},
			&Caller{Subject: "bob", Groups: []string{"blue", "ops"}, Scopes: []string{"docs:read"}}}, // read from the token (TestAWSGroupsAreWhole)
		{"jwt claims, one group, authorizer scopes", &AWSIdentity{JWTClaims: map[string]string{"sub": "bob", "cognito:groups": "blue"}, JWTScopes: []string{"a:b"}},
			&Caller{Subject: "bob", Groups: []string{"blue"}, Scopes: []string{"a:b"}}},
		{"iam", &AWSIdentity{IAM: &IAMIdentity{UserARN: "arn:aws:iam::123456789012:user/ci", AccountID: "123456789012"}},
			&Caller{Subject: "arn:aws:iam::123456789012:user/ci", Groups: []string{"arn:aws:iam::123456789012:user/ci", "aws-account:123456789012"}}},
		{"no identity", nil, nil},
		{"empty identity", &AWSIdentity{}, nil},
	} {
		t.Run(test.name, func(t *testing.T) {
			p := &probe{}
			h, _ := New(cfg, p)
			r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8080/mcp", nil)
			if test.id != nil {
				r = r.WithContext(WithAWSIdentity(r.Context(), *test.id))
				r.Header.Set("Authorization", "Bearer "+unverified(t, map[string]any{"sub": "bob", "cognito:groups": []string{"blue", "ops"}}))
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if test.want == nil {
				checkRefused(t, w, p, test.id != nil)
				return
			}
			if p.calls != 1 || !reflect.DeepEqual(p.caller, *test.want) {
				t.Errorf("got %d calls, caller %+v, want %+v", p.calls, p.caller, *test.want)
			}
		})
	}
}

// TestAmbiguousAuthorization: a request with more than one credential —
// two Authorization headers, or one whose value a proxy or Lambda folded
// from two ("Bearer a, Bearer b") — is refused with 400 invalid_request
// naming the reason, whichever of them is valid; the handler never runs.
func TestAmbiguousAuthorization(t *testing.T) {
	secret := []byte("0123456789abcdef0123456789abcdef-test")
	v, err := NewJWTVerifier(JWTOptions{Issuer: testIssuer, Audience: testAudience, HS256Secret: secret})
	if err != nil {
		t.Fatal(err)
	}
	good := "Bearer " + signer{alg: jose.HS256, key: secret}.token(t, claims(nil))
	tokenSum := sha256.Sum256([]byte("s3cret-token"))
	for _, test := range []struct {
		name    string
		cfg     Config
		headers []string
	}{
		{"bearer: valid then invalid", Config{Mode: ModeBearer, Bearer: mustParseBearer(t, hex.EncodeToString(tokenSum[:]))}, []string{"Bearer s3cret-token", "Bearer other"}},
		{"bearer: twice the valid token", Config{Mode: ModeBearer, Bearer: mustParseBearer(t, hex.EncodeToString(tokenSum[:]))}, []string{"Bearer s3cret-token", "Bearer s3cret-token"}},
		{"bearer: folded into one value", Config{Mode: ModeBearer, Bearer: mustParseBearer(t, hex.EncodeToString(tokenSum[:]))}, []string{"Bearer s3cret-token, Bearer other"}},
		{"jwt: valid then invalid", Config{Mode: ModeJWT, JWT: v}, []string{good, "Bearer not.a.jwt"}},
		{"jwt: invalid then valid", Config{Mode: ModeJWT, JWT: v}, []string{"Bearer not.a.jwt", good}},
		{"jwt: folded into one value", Config{Mode: ModeJWT, JWT: v}, []string{good + "," + good}},
	} {
		t.Run(test.name, func(t *testing.T) {
			p := &probe{}
			h, err := New(test.cfg, p)
			if err != nil {
				t.Fatal(err)
			}
			r := onListener("http://127.0.0.1:8080/mcp", "127.0.0.1:8080", "127.0.0.1:8080")
			for _, v := range test.headers {
				r.Header.Add("Authorization", v)
			}
			w := httptest.NewRecorder()
			h.ServeHTTP(w, r)
			if w.Code != http.StatusBadRequest || p.calls != 0 {
				t.Fatalf("got status %d and %d calls, want 400 and none", w.Code, p.calls)
			}
			want := challengeBase + `, error="invalid_request", error_description="more than one credential: send one Authorization header with one Bearer token"`
			if got := w.Header().Get("WWW-Authenticate"); got != want {
				t.Errorf("got WWW-Authenticate %q, want %q", got, want)
			}
			if body := strings.TrimSpace(w.Body.String()); body != "more than one credential: send one Authorization header with one Bearer token" {
				t.Errorf("got body %q, want the reason", body)
			}
		})
	}
}
