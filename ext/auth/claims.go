package auth

import (
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"
	"sync"
)

// How groups and scopes are read from claims.
//
// A group is its whole name: identity providers name groups with spaces
// and commas ("Finance Team", "Sales, EMEA" in Okta and Entra), so a group
// is never split, and a name that holds a space matches no catalog group
// (catalog names have none) rather than granting its words.
//
//   - A JWT's groups claim (jwt mode) is a JSON array, each string element
//     one group (Okta, Entra, Cognito and Keycloak send arrays, one element
//     included), or a string, which is one group: IdPs that send a string
//     send it for a single group (a Cognito pre-token trigger's string
//     claim, ADFS).
//   - Scopes are OAuth scope tokens, which hold no space: the "scope" and
//     "scp" strings are split at spaces (RFC 6749 section 3.3; Entra's scp),
//     and an array's elements (Okta's scp) are taken whole. A comma is part
//     of a scope token, never a separator.
//   - In aws mode, API Gateway's JWT authorizer passes every claim as a
//     string, and an array as its elements joined by spaces in brackets:
//     ["Finance Team", "blue"] arrives as "[Finance Team blue]", which a
//     list of three groups spells too. gatewayGroups reads such a string
//     from the token itself when it can, splits a Cognito user pool's
//     cognito:groups (whose names hold no space), and otherwise grants no
//     group from a bracketed list that holds a space, rather than a group
//     the caller may not be in.

// groupsOf reads a JWT's groups claim: the elements of an array, or one
// string, each one group whole.
func groupsOf(v any) []string {
	switch v := v.(type) {
	case string:
		if v != "" {
			return []string{v}
		}
	case []any:
		return stringElements(v)
	}
	return nil
}

// scopesOf reads a JWT's "scope" or "scp" claim: a string of scopes
// separated by spaces, or an array of scopes.
func scopesOf(v any) []string {
	switch v := v.(type) {
	case string:
		return splitScopes(v)
	case []any:
		return stringElements(v)
	}
	return nil
}

// stringElements returns the non-empty strings of a JSON array, whole.
func stringElements(list []any) []string {
	var out []string
	for _, e := range list {
		if s, ok := e.(string); ok && s != "" {
			out = append(out, s)
		}
	}
	return out
}

// splitScopes splits a scope string at its spaces (RFC 6749's delimiter).
func splitScopes(s string) []string {
	return strings.FieldsFunc(s, func(r rune) bool { return r == ' ' })
}

// gatewayScopes reads a scope claim as API Gateway passes it: a string of
// scopes separated by spaces, or an array spelt "[a b]" (or as JSON). A
// scope holds no space, so the spelling is unambiguous.
func gatewayScopes(s string) []string {
	if list, ok := jsonStrings(s); ok {
		return list
	}
	if inner, ok := bracketed(s); ok {
		return splitScopes(inner)
	}
	return splitScopes(s)
}

// errAmbiguousGroups is gatewayGroups' reason for granting no group.
var errAmbiguousGroups = errors.New("the groups claim is a list whose elements may hold spaces, and no token in the Authorization header spells it: no group is granted from it")

// gatewayGroups reads the groups claim as API Gateway's JWT authorizer
// passes it in claims (named claim), with r's token to read an ambiguous
// one by:
//
//   - a string that is not bracketed is one group, whole ("Finance Team");
//   - a bracketed one, "[...]", is read from the token in r's
//     Authorization header, which the authorizer verified (it is the
//     identity source the template configures), when that token's groups
//     claim, spelt as API Gateway spells claims, is the claim the
//     authorizer passed, and its sub is the authorizer's: the token's
//     array gives its elements, its string one group;
//   - without such a token, a JSON array of strings gives its elements,
//     "[a]" (one element without a space) is the group a, Cognito's
//     cognito:groups from a user pool's token splits at its spaces (its
//     names hold none), and any other "[a b c]" is ambiguous: no group is
//     granted from it (errAmbiguousGroups says why).
//
// The token's signature is not checked again: it only says how the string
// the authorizer verified splits. Any array that spells that string is
// made of runs of its space-separated words, so a token in the header that
// the authorizer did not verify (with another identity source) can at
// worst split it at every space, never add a group.
func gatewayGroups(claims map[string]string, claim string, r *http.Request) ([]string, error) {
	s := claims[claim]
	inner, isList := bracketed(s)
	if !isList {
		return groupsOf(s), nil
	}
	if groups, ok := tokenGroups(r, claims, claim); ok {
		return groups, nil
	}
	if list, ok := jsonStrings(s); ok {
		return list, nil
	}
	switch {
	case inner == "":
		return nil, nil
	case !strings.Contains(inner, " "):
		return []string{inner}, nil
	case claim == cognitoGroupsClaim && cognitoIssuerRE().MatchString(claims["iss"]):
		return strings.Fields(inner), nil
	}
	return nil, fmt.Errorf("claim %q: %w", claim, errAmbiguousGroups)
}

// cognitoGroupsClaim is the claim an Amazon Cognito user pool lists a
// user's groups in. Cognito's group names hold no white space (its
// GroupName pattern is [\p{L}\p{M}\p{S}\p{N}\p{P}]+), so the list API Gateway
// spells "[a b]" splits at its spaces without doubt when the token's
// issuer, which the authorizer verified, is a user pool.
const cognitoGroupsClaim = "cognito:groups"

// cognitoIssuerRE matches the issuer of a Cognito user pool's tokens.
var cognitoIssuerRE = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^https://cognito-idp\.[a-z0-9-]+\.amazonaws\.com(\.cn)?/[A-Za-z0-9_-]+$`)
})

// tokenGroups reads the groups claim from the JWT in r's Authorization
// header, when the token agrees with what the authorizer passed: its sub is
// claims' sub and its groups claim, spelt as API Gateway spells claims, is
// claims' own.
func tokenGroups(r *http.Request, claims map[string]string, claim string) ([]string, bool) {
	payload, ok := tokenPayload(r)
	if !ok {
		return nil, false
	}
	if sub, ok := payloadString(payload, "sub"); !ok || sub != claims["sub"] {
		return nil, false
	}
	raw, has := payload[claim]
	if !has {
		return nil, false
	}
	var one string
	if json.Unmarshal(raw, &one) == nil {
		return groupsOf(one), one == claims[claim]
	}
	var list []string
	if json.Unmarshal(raw, &list) != nil || gatewaySpelling(list) != claims[claim] {
		return nil, false
	}
	return groupsOf(toAny(list)), true
}

// payloadString is the string claim key of payload: "" when it is absent,
// false when it is not a string.
func payloadString(payload map[string]json.RawMessage, key string) (string, bool) {
	raw, has := payload[key]
	if !has {
		return "", true
	}
	var s string
	return s, json.Unmarshal(raw, &s) == nil
}

// gatewaySpelling is how API Gateway's JWT authorizer passes an array of
// strings: its elements joined by spaces, in brackets.
func gatewaySpelling(list []string) string {
	return "[" + strings.Join(list, " ") + "]"
}

func toAny(list []string) []any {
	out := make([]any, len(list))
	for i, s := range list {
		out[i] = s
	}
	return out
}

// tokenPayload decodes, without verifying it, the claims of the JWT in r's
// one Authorization header ("Bearer <jwt>" or the bare JWT, as API Gateway
// accepts both).
func tokenPayload(r *http.Request) (map[string]json.RawMessage, bool) {
	values := r.Header.Values("Authorization")
	if len(values) != 1 {
		return nil, false
	}
	token := strings.TrimSpace(values[0])
	if scheme, rest, ok := strings.Cut(token, " "); ok && strings.EqualFold(scheme, "Bearer") {
		token = strings.TrimSpace(rest)
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return nil, false
	}
	data, err := base64.RawURLEncoding.DecodeString(parts[1])
	if err != nil {
		return nil, false
	}
	var payload map[string]json.RawMessage
	if json.Unmarshal(data, &payload) != nil {
		return nil, false
	}
	return payload, true
}

// jsonStrings reads s as a JSON array of strings, taking the non-empty
// ones.
func jsonStrings(s string) ([]string, bool) {
	var list []string
	if !strings.HasPrefix(s, "[") || json.Unmarshal([]byte(s), &list) != nil {
		return nil, false
	}
	return groupsOf(toAny(list)), true
}

// bracketed returns the inside of "[...]".
func bracketed(s string) (string, bool) {
	if len(s) < 2 || s[0] != '[' || s[len(s)-1] != ']' {
		return "", false
	}
	return s[1 : len(s)-1], true
}
