package auth

import (
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
)

// MetadataPath is where [MetadataHandler] serves the protected resource
// metadata.
const MetadataPath = "/.well-known/oauth-protected-resource"

// Resource says where the protected resource — the MCP endpoint — is, for
// the 401 challenge and the metadata document (RFC 9728). Its zero value
// names a URL only for a request whose Host is known to be right.
type Resource struct {
	// URL is the public URL of the MCP endpoint as clients reach it
	// ("https://search.example.com/mcp"). If set, it alone is named,
	// whatever Host a request carries.
	URL string
	// HostTrusted says the Host of every request was set by a front the
	// client does not control: the Lambda adapter takes it from the
	// event's requestContext.domainName, which AWS sets. If false, and URL
	// is empty, a Host is used only on a request that reached a loopback
	// listener with a loopback name (the name a DNS rebinding page cannot
	// use); any other request is answered without a URL.
	HostTrusted bool
}

// metadataURL is the URL of the protected resource metadata for r, and
// whether there is one to name.
func (res Resource) metadataURL(r *http.Request) (string, bool) {
	origin, ok := res.origin(r)
	return origin + MetadataPath, ok
}

// resourceURL is the URL of the resource served at path, as r reached it.
func (res Resource) resourceURL(r *http.Request, path string) (string, bool) {
	if res.URL != "" {
		return res.URL, true
	}
	origin, ok := res.origin(r)
	return origin + path, ok
}

// origin is the scheme and host of the resource: the public URL's, else
// the checked Host's (http for a loopback host, else https).
func (res Resource) origin(r *http.Request) (string, bool) {
	if res.URL != "" {
		u, err := url.Parse(res.URL)
		return u.Scheme + "://" + u.Host, err == nil
	}
	if !res.HostTrusted && !onLoopback(r) {
		return "", false
	}
	scheme := "https"
	if isLoopback(r.Host) {
		scheme = "http"
	}
	return scheme + "://" + r.Host, r.Host != ""
}

// onLoopback reports whether r reached a loopback listener with a loopback
// Host.
func onLoopback(r *http.Request) bool {
	local, ok := r.Context().Value(http.LocalAddrContextKey).(net.Addr)
	return ok && local != nil && isLoopback(local.String()) && isLoopback(r.Host)
}

func isLoopback(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	ip := net.ParseIP(strings.Trim(host, "[]"))
	return host == "localhost" || ip != nil && ip.IsLoopback()
}

// CheckResourceURL checks a public URL for [Resource.URL]: absolute,
// https (http only for a loopback host), with a host and without
// credentials, query or fragment.
func CheckResourceURL(s string) error {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return errors.New("not a URL")
	case u.Scheme != "https" && !(u.Scheme == "http" && isLoopback(u.Host)):
		return errors.New("want an https:// URL (http:// only for a loopback host)")
	case u.Host == "":
		return errors.New("the URL names no host")
	case u.User != nil || u.RawQuery != "" || u.Fragment != "" || u.ForceQuery:
		return errors.New("the URL holds credentials, a query or a fragment")
	}
	return nil
}

// MetadataHandler serves the protected resource metadata (RFC 9728) of the
// MCP endpoint at path, naming issuer, if set, as its authorization server,
// and res as the resource. Where res names no URL for a request, it
// answers 404.
func MetadataHandler(path, issuer string, res Resource) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		resource, ok := res.resourceURL(r, path)
		if !ok {
			http.Error(w, "not found: this server's public URL is not configured, so it publishes no protected resource metadata", http.StatusNotFound)
			return
		}
		doc := map[string]any{"resource": resource, "bearer_methods_supported": []string{"header"}}
		if issuer != "" {
			doc["authorization_servers"] = []string{issuer}
		}
		w.Header().Set("Content-Type", "application/json")
		json.NewEncoder(w).Encode(doc)
	})
}

// challengeValue is the WWW-Authenticate value: Bearer, the metadata URL
// where there is one, then params (`error="invalid_token"`).
func (res Resource) challengeValue(r *http.Request, params ...string) string {
	if u, ok := res.metadataURL(r); ok {
		params = append([]string{fmt.Sprintf("resource_metadata=%q", u)}, params...)
	}
	if len(params) == 0 {
		return "Bearer"
	}
	return "Bearer " + strings.Join(params, ", ")
}
