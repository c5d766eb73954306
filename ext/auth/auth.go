// Package auth authenticates MCP requests and tells the extension what each
// caller may see. [New] returns an http middleware for one mode per
// deployment:
//
//   - none: no authentication; every caller sees every item. Only for a
//     listener bound to loopback, or behind an authenticating front (a
//     Lambda Function URL with AWS_IAM auth), which the operator states by
//     choosing it explicitly.
//   - bearer: static tokens, each configured as the hex SHA-256 of the
//     token, optionally with groups ([ParseBearer]); the presented token's
//     hash is compared in constant time with every configured one.
//   - jwt: a signed JWT (RS256, ES256 or HS256), verified against a
//     key, a JWKS file or a shared secret, with exp, nbf, iss and aud
//     checked; groups come from a configured claim, scopes from "scope"
//     or "scp".
//   - aws: the identity API Gateway (JWT authorizer) or Lambda (IAM auth)
//     established before the function ran, which the Lambda adapter puts
//     in the request context with [WithAWSIdentity].
//
// A request that fails gets 401 with a WWW-Authenticate: Bearer challenge
// naming the protected resource metadata (RFC 9728) at the configured
// public URL or at a Host known to be right, never at a Host a client chose
// ([Resource]), and error="invalid_token"
// when a token was presented — nothing more; the reason is logged at debug
// level. A request that presents more than one credential (two
// Authorization headers, or one value folded from two) is ambiguous: it
// gets 400 with error="invalid_request" and the reason (RFC 6750 section
// 3.1), whichever of its tokens is valid. A request that passes carries its [Caller] ([CallerFrom]) and the
// matching ext.Access in its context, which the catalog honours.
package auth

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext"
)

// Mode is an authentication mode.
type Mode string

// The modes.
const (
	ModeNone   Mode = "none"
	ModeBearer Mode = "bearer"
	ModeJWT    Mode = "jwt"
	ModeAWS    Mode = "aws"
)

// Caller is an authenticated caller.
type Caller struct {
	Subject        string
	Groups, Scopes []string
}

type callerKey struct{}

// CallerFrom returns the caller the middleware authenticated.
func CallerFrom(ctx context.Context) (Caller, bool) {
	c, ok := ctx.Value(callerKey{}).(Caller)
	return c, ok
}

// Config configures the middleware.
type Config struct {
	Mode Mode
	// Bearer holds the accepted tokens of ModeBearer.
	Bearer []BearerToken
	// JWT verifies tokens in ModeJWT.
	JWT *JWTVerifier
	// GroupsClaim names the claim that holds groups, in ModeAWS (for JWT
	// authorizer claims). If empty, "groups".
	GroupsClaim string
	// Resource is where the protected resource is, for the challenge
	// (see [Resource]).
	Resource Resource
	// Logger receives the reasons of refusals, at debug level. If nil,
	// slog.Default().
	Logger *slog.Logger
}

// authenticator establishes the caller of a request, or says why not.
type authenticator func(r *http.Request) (Caller, error)

// errNoCredentials is a request without a token: its challenge carries no
// error code (RFC 6750 section 3.1).
var errNoCredentials = errors.New("no credentials")

// errAmbiguous is a request with more than one credential.
var errAmbiguous = errors.New("more than one credential: send one Authorization header with one Bearer token")

// New returns the middleware of cfg around next.
func New(cfg Config, next http.Handler) (http.Handler, error) {
	logger := cmp.Or(cfg.Logger, slog.Default())
	var auth authenticator
	switch cfg.Mode {
	case ModeNone:
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			next.ServeHTTP(w, r.WithContext(ext.WithAccess(r.Context(), ext.Access{All: true})))
		}), nil
	case ModeBearer:
		if len(cfg.Bearer) == 0 {
			return nil, errors.New("auth mode bearer: no token hashes configured")
		}
		auth = bearerAuth(cfg.Bearer)
	case ModeJWT:
		if cfg.JWT == nil {
			return nil, errors.New("auth mode jwt: no verifier configured")
		}
		auth = cfg.JWT.authenticate
	case ModeAWS:
		auth = awsAuth(cmp.Or(cfg.GroupsClaim, "groups"), logger)
	default:
		return nil, fmt.Errorf("auth mode %q: want none, bearer, jwt or aws", cfg.Mode)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := auth(r)
		if err != nil {
			logger.Debug("request refused", "mode", cfg.Mode, "reason", err.Error())
			if errors.Is(err, errAmbiguous) {
				refuseAmbiguous(w, r, cfg.Resource)
				return
			}
			challenge(w, r, cfg.Resource, !errors.Is(err, errNoCredentials))
			return
		}
		ctx := context.WithValue(r.Context(), callerKey{}, c)
		ctx = ext.WithAccess(ctx, ext.Access{Groups: c.Groups, Scopes: c.Scopes})
		ctx = ext.WithSubject(ctx, c.Subject) // for the request log
		next.ServeHTTP(w, r.WithContext(ctx))
	}), nil
}

// challenge answers 401 with the Bearer challenge the MCP authorization
// spec asks for.
func challenge(w http.ResponseWriter, r *http.Request, res Resource, invalid bool) {
	var params []string
	if invalid {
		params = append(params, `error="invalid_token"`)
	}
	w.Header().Set("WWW-Authenticate", res.challengeValue(r, params...))
	http.Error(w, "unauthorized", http.StatusUnauthorized)
}

// refuseAmbiguous answers 400 invalid_request to a request with more than
// one credential.
func refuseAmbiguous(w http.ResponseWriter, r *http.Request, res Resource) {
	w.Header().Set("WWW-Authenticate", res.challengeValue(r, `error="invalid_request"`, fmt.Sprintf("error_description=%q", errAmbiguous.Error())))
	http.Error(w, errAmbiguous.Error(), http.StatusBadRequest)
}

// bearerToken returns the token of an Authorization: Bearer header. Two
// headers, or a comma in the one (which no Bearer token holds: proxies and
// Lambda fold repeated headers into one value with commas), are ambiguous.
func bearerToken(r *http.Request) (string, error) {
	values := r.Header.Values("Authorization")
	switch {
	case len(values) > 1 || len(values) == 1 && strings.Contains(values[0], ","):
		return "", errAmbiguous
	case len(values) == 0 || values[0] == "":
		return "", errNoCredentials
	}
	h := values[0]
	scheme, token, ok := strings.Cut(h, " ")
	if !ok || !strings.EqualFold(scheme, "Bearer") || strings.TrimSpace(token) == "" {
		return "", errors.New("the Authorization header is not a Bearer token")
	}
	return strings.TrimSpace(token), nil
}
