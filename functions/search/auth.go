package main

import (
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"

	"github.com/mcpsearch/mcpsearch/ext/auth"
)

// Authentication (package ext/auth), one mode per deployment, chosen by
// MCPSEARCH_AUTH and configured by the MCPSEARCH_BEARER_* and
// MCPSEARCH_JWT_* settings (config.go). Locally the default is none,
// allowed only on a loopback MCPSEARCH_ADDR. In Lambda there is no
// default: none must be chosen explicitly (for a Function URL whose
// AWS_IAM auth authenticates every caller).

// checkAuth refuses what must not run — none on a listener other than
// loopback, no mode in Lambda, aws outside Lambda — and a mode without its
// settings; in jwt mode it loads the key.
func (c *Config) checkAuth() error {
	switch {
	case c.Auth == "" && c.inLambda():
		return errors.New("MCPSEARCH_AUTH is not set: choose none (only behind a Function URL with AWS_IAM auth), bearer, jwt or aws")
	case c.Auth == "":
		c.Auth = auth.ModeNone
	}
	switch {
	case c.Auth == auth.ModeNone && !c.inLambda() && !loopbackAddr(c.Addr):
		return fmt.Errorf("MCPSEARCH_AUTH=none serves everyone every item: refused on %s, which is not a loopback address (bind 127.0.0.1, or set MCPSEARCH_AUTH to bearer or jwt)", c.Addr)
	case c.Auth == auth.ModeAWS && !c.inLambda():
		return errAWSOutsideLambda
	case c.Auth == auth.ModeBearer && len(c.Bearer) == 0:
		return errors.New("MCPSEARCH_AUTH=bearer: MCPSEARCH_BEARER_SHA256 is not set (want comma-separated hex SHA-256 of each accepted token)")
	case c.Auth == auth.ModeJWT:
		return c.loadJWT()
	}
	return nil
}

var errAWSOutsideLambda = errors.New("MCPSEARCH_AUTH=aws trusts the identity API Gateway or Lambda establishes: it works only in Lambda")

// loadJWT makes the verifier of jwt mode, naming the setting at fault.
func (c *Config) loadJWT() error {
	o := c.JWT
	if o.Issuer == "" || o.Audience == "" {
		return errors.New("MCPSEARCH_AUTH=jwt: MCPSEARCH_JWT_ISSUER and MCPSEARCH_JWT_AUDIENCE must both be set")
	}
	type key struct{ name, value string }
	var keys []key
	for _, k := range []key{{"MCPSEARCH_JWT_JWKS_FILE", o.JWKSFile}, {"MCPSEARCH_JWT_KEY_FILE", o.KeyFile}, {"MCPSEARCH_JWT_HS256_SECRET", string(o.HS256Secret)}} {
		if k.value != "" {
			keys = append(keys, k)
		}
	}
	if len(keys) != 1 {
		return fmt.Errorf("MCPSEARCH_AUTH=jwt: set exactly one of MCPSEARCH_JWT_JWKS_FILE, MCPSEARCH_JWT_KEY_FILE and MCPSEARCH_JWT_HS256_SECRET (%d are set)", len(keys))
	}
	v, err := auth.NewJWTVerifier(o)
	if err != nil {
		return settingNamed(keys[0].name).refuse(keys[0].value, err)
	}
	c.jwt = v
	return nil
}

// loopbackAddr reports whether a listen address binds loopback only.
func loopbackAddr(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil {
		return false
	}
	ip := net.ParseIP(host)
	return host == "localhost" || ip != nil && ip.IsLoopback()
}

// withAuth wraps the MCP endpoint h in the configured authentication and,
// for the token modes, serves the protected resource metadata beside it.
func withAuth(mux *http.ServeMux, path string, h http.Handler, cfg *Config, logger *slog.Logger) error {
	res := resourceOf(cfg)
	wrapped, err := auth.New(auth.Config{Mode: cfg.Auth, Bearer: cfg.Bearer, JWT: cfg.jwt, GroupsClaim: cfg.JWT.GroupsClaim, Resource: res, Logger: logger}, h)
	if err != nil {
		return fmt.Errorf("MCPSEARCH_AUTH: %w", err)
	}
	mux.Handle(path, wrapped)
	if cfg.Auth == auth.ModeBearer || cfg.Auth == auth.ModeJWT {
		meta := auth.MetadataHandler(path, cfg.JWT.Issuer, res)
		mux.Handle(auth.MetadataPath, meta)
		mux.Handle(auth.MetadataPath+path, meta)
	}
	if cfg.Auth != auth.ModeNone && cfg.Auth != auth.ModeAWS && cfg.PublicURL == "" && !cfg.inLambda() && !loopbackAddr(cfg.Addr) {
		logger.Warn("MCPSEARCH_PUBLIC_URL is not set: the 401 challenge names no protected resource metadata, and none is served")
	}
	logger.Info("authentication", "mode", cfg.Auth)
	return nil
}

// resourceOf says where the MCP endpoint is, for the auth challenge and the
// protected resource metadata: MCPSEARCH_PUBLIC_URL if set; else, in
// Lambda, the Host the adapter takes from the event's domain name (set by
// AWS, not the client); else a loopback Host on a loopback listener only.
func resourceOf(cfg *Config) auth.Resource {
	return auth.Resource{URL: cfg.PublicURL, HostTrusted: cfg.inLambda()}
}
