package auth

import (
	"cmp"
	"crypto"
	"crypto/ecdsa"
	"crypto/rsa"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/go-jose/go-jose/v4"
	"github.com/go-jose/go-jose/v4/jwt"
)

// JWTOptions configure a JWTVerifier. Issuer and Audience are required:
// without them a token the same identity provider issued for another
// service would pass. Exactly one of JWKSFile, KeyFile and HS256Secret
// gives the key.
type JWTOptions struct {
	Issuer, Audience string
	// JWKSFile is a JSON Web Key Set; a token's "kid" picks its key.
	JWKSFile string
	// KeyFile is a PEM public key (RSA or EC P-256), or a certificate.
	KeyFile string
	// HS256Secret is a shared secret for HS256.
	HS256Secret []byte
	// GroupsClaim names the claim that holds the caller's groups: an array
	// of group names, or one string that is one group name (a group is its
	// whole name, never split; claims.go). If empty, "groups".
	GroupsClaim string
	// Leeway is the clock skew allowed on exp and nbf. If zero, 30 seconds.
	Leeway time.Duration
	// Now is the clock. If nil, time.Now.
	Now func() time.Time
}

// JWTVerifier checks signed JWTs.
type JWTVerifier struct {
	opts JWTOptions
	keys jose.JSONWebKeySet
	algs []jose.SignatureAlgorithm
}

// NewJWTVerifier loads the configured key.
func NewJWTVerifier(o JWTOptions) (*JWTVerifier, error) {
	if o.Issuer == "" || o.Audience == "" {
		return nil, errors.New("jwt: the issuer and the audience must both be set")
	}
	v := &JWTVerifier{opts: o}
	v.opts.GroupsClaim = cmp.Or(o.GroupsClaim, "groups")
	v.opts.Leeway = cmp.Or(o.Leeway, 30*time.Second)
	if v.opts.Now == nil {
		v.opts.Now = time.Now
	}
	n := 0
	for _, set := range []bool{o.JWKSFile != "", o.KeyFile != "", len(o.HS256Secret) > 0} {
		if set {
			n++
		}
	}
	if n != 1 {
		return nil, errors.New("jwt: set exactly one of the JWKS file, the key file and the HS256 secret")
	}
	var err error
	switch {
	case o.JWKSFile != "":
		err = v.loadJWKS(o.JWKSFile)
	case o.KeyFile != "":
		err = v.loadKeyFile(o.KeyFile)
	default:
		if len(o.HS256Secret) < 32 {
			return nil, errors.New("jwt: the HS256 secret must be at least 32 bytes")
		}
		v.keys.Keys = []jose.JSONWebKey{{Key: o.HS256Secret, Algorithm: string(jose.HS256)}}
		v.algs = []jose.SignatureAlgorithm{jose.HS256}
	}
	return v, err
}

func (v *JWTVerifier) loadJWKS(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("jwt: JWKS file: %w", err)
	}
	if err := json.Unmarshal(data, &v.keys); err != nil {
		return fmt.Errorf("jwt: JWKS file %s: %w", path, err)
	}
	for i, k := range v.keys.Keys {
		if !k.Valid() || !k.IsPublic() {
			return fmt.Errorf("jwt: JWKS file %s: key %d is not a valid public key", path, i)
		}
		if err := v.allow(k.Key); err != nil {
			return fmt.Errorf("jwt: JWKS file %s: key %d: %w", path, i, err)
		}
	}
	if len(v.keys.Keys) == 0 {
		return fmt.Errorf("jwt: JWKS file %s holds no keys", path)
	}
	return nil
}

func (v *JWTVerifier) loadKeyFile(path string) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return fmt.Errorf("jwt: key file: %w", err)
	}
	block, _ := pem.Decode(data)
	if block == nil {
		return fmt.Errorf("jwt: key file %s: no PEM block", path)
	}
	var key crypto.PublicKey
	if block.Type == "CERTIFICATE" {
		cert, err := x509.ParseCertificate(block.Bytes)
		if err != nil {
			return fmt.Errorf("jwt: key file %s: %w", path, err)
		}
		key = cert.PublicKey
	} else if key, err = x509.ParsePKIXPublicKey(block.Bytes); err != nil {
		return fmt.Errorf("jwt: key file %s: want a PEM public key (PKIX) or certificate: %w", path, err)
	}
	if err := v.allow(key); err != nil {
		return fmt.Errorf("jwt: key file %s: %w", path, err)
	}
	v.keys.Keys = []jose.JSONWebKey{{Key: key}}
	return nil
}

// allow adds the algorithm of a public key: RS256 for RSA, ES256 for P-256.
func (v *JWTVerifier) allow(key any) error {
	var alg jose.SignatureAlgorithm
	switch k := key.(type) {
	case *rsa.PublicKey:
		alg = jose.RS256
	case *ecdsa.PublicKey:
		if k.Curve.Params().Name != "P-256" {
			return fmt.Errorf("EC key on %s: only P-256 (ES256) is accepted", k.Curve.Params().Name)
		}
		alg = jose.ES256
	default:
		return fmt.Errorf("key of type %T: want RSA or EC P-256", key)
	}
	for _, a := range v.algs {
		if a == alg {
			return nil
		}
	}
	v.algs = append(v.algs, alg)
	return nil
}

// tokenClaims are the claims a caller is made of, beside the registered
// ones go-jose validates.
type tokenClaims map[string]any

func (v *JWTVerifier) authenticate(r *http.Request) (Caller, error) {
	raw, err := bearerToken(r)
	if err != nil {
		return Caller{}, err
	}
	tok, err := jwt.ParseSigned(raw, v.algs)
	if err != nil {
		return Caller{}, fmt.Errorf("jwt: %w", err)
	}
	var std jwt.Claims
	var extra tokenClaims
	if err := v.verify(tok, &std, &extra); err != nil {
		return Caller{}, err
	}
	if std.Expiry == nil {
		return Caller{}, errors.New("jwt: token has no exp")
	}
	err = std.ValidateWithLeeway(jwt.Expected{Issuer: v.opts.Issuer, AnyAudience: jwt.Audience{v.opts.Audience}, Time: v.opts.Now()}, v.opts.Leeway)
	if err != nil {
		return Caller{}, fmt.Errorf("jwt: %w", err)
	}
	return Caller{Subject: std.Subject, Groups: groupsOf(extra[v.opts.GroupsClaim]), Scopes: scopes(extra)}, nil
}

// verify checks the signature with the key the token's kid names (any key
// when it names none) and decodes the claims.
func (v *JWTVerifier) verify(tok *jwt.JSONWebToken, dest ...any) error {
	kid := ""
	if len(tok.Headers) > 0 {
		kid = tok.Headers[0].KeyID
	}
	keys := v.keys.Keys
	if kid != "" && len(v.keys.Key(kid)) > 0 {
		keys = v.keys.Key(kid)
	}
	err := errors.New("jwt: no key")
	for _, k := range keys {
		if err = tok.Claims(k.Key, dest...); err == nil {
			return nil
		}
	}
	return fmt.Errorf("jwt: signature: %w", err)
}

// scopes reads the OAuth scopes of a token: "scope" (space-separated) and
// "scp" (an array or a space-separated string).
func scopes(c tokenClaims) []string {
	return append(scopesOf(c["scope"]), scopesOf(c["scp"])...)
}
