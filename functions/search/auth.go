package main

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext/auth"
)

// Authentication (package ext/auth), one mode per deployment:
//
//	MCPSEARCH_AUTH               none, bearer, jwt or aws. Locally the default is none,
//	                             allowed only on a loopback MCPSEARCH_ADDR. In Lambda there
//	                             is no default: none must be chosen explicitly (for a
//	                             Function URL whose AWS_IAM auth authenticates every caller).
//	MCPSEARCH_BEARER_SHA256      bearer: hex SHA-256 of each token, comma-separated,
//	                             each optionally =group|group
//	MCPSEARCH_JWT_ISSUER         jwt: the required iss
//	MCPSEARCH_JWT_AUDIENCE       jwt: the required aud
//	MCPSEARCH_JWT_JWKS_FILE      jwt: a JSON Web Key Set file (RS256, ES256), or
//	MCPSEARCH_JWT_KEY_FILE       jwt: a PEM public key or certificate, or
//	MCPSEARCH_JWT_HS256_SECRET   jwt: a shared secret (at least 32 bytes)
//	MCPSEARCH_JWT_GROUPS_CLAIM   jwt, aws: the claim holding groups (default groups)

// authMode is the configured mode, refusing what must not run: none on a
// listener other than loopback, none in Lambda unless chosen explicitly,
// aws outside Lambda.
func authMode(inLambda bool, addr string) (auth.Mode, error) {
	mode := auth.Mode(os.Getenv("MCPSEARCH_AUTH"))
	switch {
	case mode == "" && inLambda:
		return "", fmt.Errorf("MCPSEARCH_AUTH is not set: choose none (only behind a Function URL with AWS_IAM auth), bearer, jwt or aws")
	case mode == "":
		mode = auth.ModeNone
	}
	switch {
	case mode == auth.ModeNone && !inLambda && !loopbackAddr(addr):
		return "", fmt.Errorf("MCPSEARCH_AUTH=none serves everyone every item: refused on %s, which is not a loopback address (bind 127.0.0.1, or set MCPSEARCH_AUTH to bearer or jwt)", addr)
	case mode == auth.ModeAWS && !inLambda:
		return "", errAWSOutsideLambda
	}
	return mode, nil
}

var errAWSOutsideLambda = errors.New("MCPSEARCH_AUTH=aws trusts the identity API Gateway or Lambda establishes: it works only in Lambda")

// loopbackAddr reports whether a listen address binds loopback only.
func loopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return host == "localhost" || ip != nil && ip.IsLoopback()
}

// authConfig reads the settings of mode.
func authConfig(mode auth.Mode, logger *slog.Logger) (auth.Config, error) {
	cfg := auth.Config{Mode: mode, Logger: logger, GroupsClaim: os.Getenv("MCPSEARCH_JWT_GROUPS_CLAIM")}
	var err error
	switch mode {
	case auth.ModeBearer:
		if cfg.Bearer, err = auth.ParseBearer(os.Getenv("MCPSEARCH_BEARER_SHA256")); err != nil {
			return cfg, fmt.Errorf("MCPSEARCH_BEARER_SHA256: %w", err)
		}
	case auth.ModeJWT:
		cfg.JWT, err = auth.NewJWTVerifier(auth.JWTOptions{
			Issuer: os.Getenv("MCPSEARCH_JWT_ISSUER"), Audience: os.Getenv("MCPSEARCH_JWT_AUDIENCE"),
			JWKSFile: os.Getenv("MCPSEARCH_JWT_JWKS_FILE"), KeyFile: os.Getenv("MCPSEARCH_JWT_KEY_FILE"),
			HS256Secret: []byte(os.Getenv("MCPSEARCH_JWT_HS256_SECRET")), GroupsClaim: cfg.GroupsClaim,
		})
		if err != nil {
			return cfg, fmt.Errorf("MCPSEARCH_AUTH=jwt: %w (settings MCPSEARCH_JWT_*)", err)
		}
	}
	return cfg, nil
}

// withAuth wraps the MCP endpoint h in the configured authentication and,
// for the token modes, serves the protected resource metadata beside it.
func withAuth(mux *http.ServeMux, path string, h http.Handler, logger *slog.Logger) error {
	inLambda := os.Getenv("AWS_LAMBDA_RUNTIME_API") != ""
	mode := auth.Mode(strings.TrimSpace(os.Getenv("MCPSEARCH_AUTH")))
	if mode == "" {
		mode = auth.ModeNone // run() has refused an unset mode where it matters
	}
	if mode == auth.ModeAWS && !inLambda {
		return errAWSOutsideLambda
	}
	cfg, err := authConfig(mode, logger)
	if err != nil {
		return err
	}
	wrapped, err := auth.New(cfg, h)
	if err != nil {
		return fmt.Errorf("MCPSEARCH_AUTH: %w", err)
	}
	mux.Handle(path, wrapped)
	if mode == auth.ModeBearer || mode == auth.ModeJWT {
		meta := auth.MetadataHandler(path, os.Getenv("MCPSEARCH_JWT_ISSUER"))
		mux.Handle(auth.MetadataPath, meta)
		mux.Handle(auth.MetadataPath+path, meta)
	}
	logger.Info("authentication", "mode", mode)
	return nil
}
