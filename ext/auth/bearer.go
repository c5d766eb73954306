package auth

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/hex"
	"errors"
	"fmt"
	"net/http"
	"strings"
)

// BearerToken is one accepted static token: the SHA-256 of the token and
// the groups its holder belongs to.
type BearerToken struct {
	SHA256 [sha256.Size]byte
	Groups []string
}

// ParseBearer parses MCPSEARCH_BEARER_SHA256: comma-separated entries, each
// the hex SHA-256 of a token, optionally followed by "=" and the token's
// groups separated by "|":
//
//	9f86d08…b0f00a08,60303ae2…c39b7ad1=platform|sre
//
// (`printf %s "$TOKEN" | sha256sum` gives the hex.)
func ParseBearer(spec string) ([]BearerToken, error) {
	var out []BearerToken
	for i, entry := range strings.Split(spec, ",") {
		entry = strings.TrimSpace(entry)
		if entry == "" {
			continue
		}
		sum, groups, _ := strings.Cut(entry, "=")
		raw, err := hex.DecodeString(sum)
		if err != nil || len(raw) != sha256.Size {
			return nil, fmt.Errorf("entry %d: want 64 hex digits (the SHA-256 of a token), then optionally =group|group", i+1)
		}
		t := BearerToken{}
		copy(t.SHA256[:], raw)
		for _, g := range strings.Split(groups, "|") {
			if g = strings.TrimSpace(g); g != "" {
				t.Groups = append(t.Groups, g)
			}
		}
		out = append(out, t)
	}
	if len(out) == 0 {
		return nil, errors.New("no token hash given")
	}
	return out, nil
}

// bearerAuth accepts a token whose SHA-256 is configured. Every configured
// hash is compared, in constant time, whatever matched before.
func bearerAuth(tokens []BearerToken) authenticator {
	return func(r *http.Request) (Caller, error) {
		token, err := bearerToken(r)
		if err != nil {
			return Caller{}, err
		}
		sum := sha256.Sum256([]byte(token))
		found := -1
		for i := range tokens {
			if subtle.ConstantTimeCompare(sum[:], tokens[i].SHA256[:]) == 1 && found < 0 {
				found = i
			}
		}
		if found < 0 {
			return Caller{}, errors.New("bearer token matches no configured hash")
		}
		return Caller{Subject: "bearer:" + hex.EncodeToString(sum[:4]), Groups: tokens[found].Groups}, nil
	}
}
