package auth

import (
	"bytes"
	"cmp"
	"encoding/base64"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"testing"

	"github.com/go-jose/go-jose/v4"
)

// TestJWTGroupsAreWhole: a JWT's groups are its claim's elements, or its
// one string, whole: a group named "not blue" or "Finance,blue" never
// grants the catalog group blue. Scopes split at spaces only.
func TestJWTGroupsAreWhole(t *testing.T) {
	secret := []byte("0123456789abcdef0123456789abcdef-test")
	v, err := NewJWTVerifier(JWTOptions{Issuer: testIssuer, Audience: testAudience, HS256Secret: secret})
	if err != nil {
		t.Fatal(err)
	}
	cfg := Config{Mode: ModeJWT, JWT: v}
	hs := signer{alg: jose.HS256, key: secret}
	for _, test := range []struct {
		name           string
		groups, scope  any
		want, wantScps []string
	}{
		{"string with a space", "not blue", "docs:read", []string{"not blue"}, []string{"docs:read"}},
		{"string with a comma", "Finance,blue", nil, []string{"Finance,blue"}, nil},
		{"string of one group", "blue", nil, []string{"blue"}, nil},
		{"array element with a space", []string{"not blue", "ops"}, nil, []string{"not blue", "ops"}, nil},
		{"array element with a comma", []string{"Finance,blue"}, nil, []string{"Finance,blue"}, nil},
		{"array of non-strings", []any{1, true, "", "ops"}, nil, []string{"ops"}, nil},
		{"empty string", "", nil, nil, nil},
		{"scopes split at spaces, not commas", nil, "a,blue  docs:read", nil, []string{"a,blue", "docs:read"}},
		{"scopes as an array, whole", nil, []string{"a b", "c"}, nil, []string{"a b", "c"}},
	} {
		t.Run(test.name, func(t *testing.T) {
			token := hs.token(t, claims(func(c map[string]any) {
				delete(c, "groups")
				delete(c, "scope")
				if test.groups != nil {
					c["groups"] = test.groups
				}
				if test.scope != nil {
					c["scp"] = test.scope
				}
			}))
			w, p := serve(t, cfg, "Bearer "+token)
			if w.Code != http.StatusOK {
				t.Fatalf("got %d, want the request through", w.Code)
			}
			if !reflect.DeepEqual(p.caller.Groups, test.want) || !reflect.DeepEqual(p.caller.Scopes, test.wantScps) {
				t.Errorf("got groups %q and scopes %q, want %q and %q", p.caller.Groups, p.caller.Scopes, test.want, test.wantScps)
			}
			if p.access.Sees([]string{"blue"}, nil) != (len(test.want) > 0 && test.want[0] == "blue") {
				t.Errorf("groups %q: seeing the catalog group blue is %v", p.caller.Groups, p.access.Sees([]string{"blue"}, nil))
			}
		})
	}
}

// unverified is a JWT with claims and a signature no one checks: what
// stands in the Authorization header behind API Gateway, which checked it.
func unverified(t *testing.T, claims map[string]any) string {
	t.Helper()
	payload, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	enc := base64.RawURLEncoding.EncodeToString
	return enc([]byte(`{"alg":"RS256","typ":"JWT"}`)) + "." + enc(payload) + "." + enc([]byte("signature"))
}

// TestAWSGroupsAreWhole: in aws mode a groups claim is read as API
// Gateway spells it: a string is one group; a bracketed list is read from
// the token the authorizer verified when that token spells it so, a
// Cognito user pool's cognito:groups splits at its spaces (its names hold
// none), and any other list grants no group it cannot tell whole ("[not
// blue]" is one group or two).
func TestAWSGroupsAreWhole(t *testing.T) {
	const claim = "cognito:groups"
	token := func(sub string, groups any) string {
		return "Bearer " + unverified(t, map[string]any{"sub": sub, claim: groups, "iss": testIssuer})
	}
	const pool = "https://cognito-idp.us-east-1.amazonaws.com/us-east-1_Example"
	for _, test := range []struct {
		name, groups, authorization string
		want                        []string
		logged                      bool   // the reason no group was granted is logged
		iss, claim                  string // if empty, testIssuer and claim
	}{
		{"string with a space", "not blue", "", []string{"not blue"}, false, "", ""},
		{"string with a comma", "Finance,blue", "", []string{"Finance,blue"}, false, "", ""},
		{"one group", "blue", "", []string{"blue"}, false, "", ""},
		{"a list of one with a comma", "[Finance,blue]", "", []string{"Finance,blue"}, false, "", ""},
		{"a list of one", "[blue]", "", []string{"blue"}, false, "", ""},
		{"an empty list", "[]", "", nil, false, "", ""},
		{"a JSON list", `["not blue","ops"]`, "", []string{"not blue", "ops"}, false, "", ""},
		{"ambiguous without a token", "[not blue]", "", nil, true, "", ""},
		{"ambiguous with another credential", "[not blue]", "Basic Ym9iOnB3", nil, true, "", ""},
		{"read from the token: one group with a space", "[not blue]", token("bob", []string{"not blue"}), []string{"not blue"}, false, "", ""},
		{"read from the token: two groups", "[blue ops]", token("bob", []string{"blue", "ops"}), []string{"blue", "ops"}, false, "", ""},
		{"read from the bare token", "[blue ops]", strings.TrimPrefix(token("bob", []string{"blue", "ops"}), "Bearer "), []string{"blue", "ops"}, false, "", ""},
		{"read from the token: a string claim in brackets", "[not blue]", token("bob", "[not blue]"), []string{"[not blue]"}, false, "", ""},
		{"a token of another subject", "[not blue]", token("eve", []string{"not", "blue"}), nil, true, "", ""},
		{"a token that spells other groups", "[not blue]", token("bob", []string{"not blue", "admin"}), nil, true, "", ""},
		{"a token without the claim", "[not blue]", "Bearer " + unverified(t, map[string]any{"sub": "bob"}), nil, true, "", ""},
		{"a token that is not a JWT", "[not blue]", "Bearer not-a-jwt", nil, true, "", ""},
		{"a Cognito user pool's groups, without a token", "[blue ops]", "", []string{"blue", "ops"}, false, pool, ""},
		{"cognito:groups of another issuer", "[blue ops]", "", nil, true, "https://idp.example.com/cognito-idp.us-east-1.amazonaws.com/x", ""},
		{"a user pool's other claim", "[not blue]", "", nil, true, pool, "groups"},
	} {
		t.Run(test.name, func(t *testing.T) {
			var log bytes.Buffer
			logger := slog.New(slog.NewTextHandler(&log, &slog.HandlerOptions{Level: slog.LevelDebug}))
			p := &probe{}
			named := cmp.Or(test.claim, claim)
			h, err := New(Config{Mode: ModeAWS, GroupsClaim: named, Logger: logger, Resource: Resource{HostTrusted: true}}, p)
			if err != nil {
				t.Fatal(err)
			}
			r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8080/mcp", nil)
			id := AWSIdentity{JWTClaims: map[string]string{"sub": "bob", "iss": cmp.Or(test.iss, testIssuer), named: test.groups}}
			r = r.WithContext(WithAWSIdentity(r.Context(), id))
			if test.authorization != "" {
				r.Header.Set("Authorization", test.authorization)
			}
			h.ServeHTTP(httptest.NewRecorder(), r)
			if p.calls != 1 || !reflect.DeepEqual(p.caller.Groups, test.want) {
				t.Fatalf("got %d calls, groups %q; want %q", p.calls, p.caller.Groups, test.want)
			}
			if p.access.Sees([]string{"blue"}, nil) != (len(test.want) > 0 && test.want[0] == "blue") {
				t.Errorf("groups %q: seeing the catalog group blue is %v", p.caller.Groups, p.access.Sees([]string{"blue"}, nil))
			}
			if got := strings.Contains(log.String(), "no group is granted"); got != test.logged {
				t.Errorf("logged the ungranted groups: %v, want %v (log %q)", got, test.logged, log.String())
			}
		})
	}
}

// TestAWSScopes: scopes are split at spaces, never at commas, in brackets
// or not.
func TestAWSScopes(t *testing.T) {
	p := &probe{}
	h, _ := New(Config{Mode: ModeAWS, Resource: Resource{HostTrusted: true}}, p)
	r := httptest.NewRequest(http.MethodPost, "http://127.0.0.1:8080/mcp", nil)
	r = r.WithContext(WithAWSIdentity(r.Context(), AWSIdentity{
		JWTClaims: map[string]string{"sub": "bob", "scope": "docs:read a,blue", "scp": "[x:read y:write]"}, JWTScopes: []string{"z"}}))
	h.ServeHTTP(httptest.NewRecorder(), r)
	if want := []string{"z", "docs:read", "a,blue", "x:read", "y:write"}; !reflect.DeepEqual(p.caller.Scopes, want) {
		t.Errorf("got scopes %q, want %q", p.caller.Scopes, want)
	}
}
