package crawl

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"gopkg.in/yaml.v3"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/ext/upstream"
)

// Transports a servers file may name.
const (
	TransportHTTP  = upstream.TransportHTTP
	TransportStdio = upstream.TransportStdio
)

// Config is a validated servers file.
type Config struct {
	File    string // the file it was read from, for messages
	Servers []ServerConfig
}

// ServerConfig is one upstream server of a servers file: its name, how to
// reach it (written into its catalog file as the gateway's "upstream"
// object) and who may see it. String values may hold ${VAR} references,
// kept as written: Expand resolves them.
type ServerConfig struct {
	Name string `json:"-"`
	upstream.Config
	// Visibility says who may see the server's items (the catalog's
	// format: members of its groups, holders of its OAuth scopes); nil
	// when the servers file says nothing.
	Visibility *catalog.Visibility `json:"-"`
	// Package is the server's published package ("name@version" or
	// "name"), its identity in the library of public servers' requests:
	// the servers file's package, else the package a stdio command runs
	// through npx, npm exec, bunx, pnpm dlx or yarn dlx (stdioPackage).
	// The operator's, never the upstream's: the name a server gives
	// itself (serverInfo.name) identifies it only when this is empty.
	Package string `json:"-"`
	where   string // "servers[2]"
}

// ConfigError reports a problem in a servers file, naming the file and the
// field ("servers[2].url").
type ConfigError struct {
	File, Field string
	Err         error
}

func (e *ConfigError) Error() string {
	if e.Field == "" {
		return e.File + ": " + e.Err.Error()
	}
	return e.File + ": " + e.Field + ": " + e.Err.Error()
}

func (e *ConfigError) Unwrap() error { return e.Err }

// LoadServers reads and validates a servers file, YAML or JSON (the same
// keys). Unknown keys, unknown transports, missing urls or commands, and
// invalid or duplicate names are errors; ${VAR} references are checked for
// form only, and resolved when connecting.
func LoadServers(path string) (*Config, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("reading servers file: %w", err)
	}
	return ParseServers(filepath.Base(path), data)
}

// ParseServers is LoadServers on data; errors name file.
func ParseServers(file string, data []byte) (*Config, error) {
	doc, err := decodeDoc(data)
	if err != nil {
		return nil, &ConfigError{File: file, Err: err}
	}
	p := parser{file: file}
	top, ok := p.object(doc, "", "servers")
	if !ok {
		return nil, p.err
	}
	list, isList := top["servers"].([]any)
	switch {
	case top["servers"] == nil:
		return nil, &ConfigError{File: file, Field: "servers", Err: errors.New("missing: list the servers to crawl")}
	case !isList:
		return nil, &ConfigError{File: file, Field: "servers", Err: errors.New("want a list")}
	case len(list) == 0:
		return nil, &ConfigError{File: file, Field: "servers", Err: errors.New("empty: list the servers to crawl")}
	}
	cfg := &Config{File: file}
	seen := map[string]string{}
	for i, v := range list {
		s, ok := p.server(v, fmt.Sprintf("servers[%d]", i))
		if !ok {
			return nil, p.err
		}
		if prev, dup := seen[s.Name]; dup {
			return nil, &ConfigError{File: file, Field: s.where + ".name", Err: fmt.Errorf("%q is already the name of %s", s.Name, prev)}
		}
		seen[s.Name] = s.where
		cfg.Servers = append(cfg.Servers, s)
	}
	return cfg, nil
}

// decodeDoc decodes JSON (a document that starts with '{') or YAML into
// maps, lists and scalars. JSON gets its own decoder: YAML refuses the tab
// indentation JSON files often have.
func decodeDoc(data []byte) (any, error) {
	var doc any
	if trimmed := bytes.TrimSpace(data); len(trimmed) > 0 && trimmed[0] == '{' {
		if err := json.Unmarshal(trimmed, &doc); err != nil {
			return nil, fmt.Errorf("not valid JSON: %v", err)
		}
		return doc, nil
	}
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return nil, fmt.Errorf("not valid YAML: %v", err)
	}
	return doc, nil
}

// parser walks a decoded servers file, keeping the first error.
type parser struct {
	file string
	err  *ConfigError
}

func (p *parser) fail(field string, format string, args ...any) bool {
	p.err = &ConfigError{File: p.file, Field: field, Err: fmt.Errorf(format, args...)}
	return false
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// object checks that v is a mapping with string keys among allowed.
func (p *parser) object(v any, path string, allowed ...string) (map[string]any, bool) {
	m, ok := v.(map[string]any)
	if !ok {
		return nil, p.fail(path, "want a mapping (an object), got %s", describe(v))
	}
	for k := range m {
		if !slices.Contains(allowed, k) {
			return nil, p.fail(join(path, k), "unknown field (known: %s)", strings.Join(allowed, ", "))
		}
	}
	return m, true
}

func (p *parser) str(m map[string]any, path, key string) (string, bool) {
	switch v := m[key].(type) {
	case nil:
		return "", true
	case string:
		return v, p.refs(join(path, key), v)
	default:
		return "", p.fail(join(path, key), "want a string, got %s", describe(v))
	}
}

func (p *parser) strings(m map[string]any, path, key string) ([]string, bool) {
	list, ok := m[key].([]any)
	if m[key] != nil && !ok {
		return nil, p.fail(join(path, key), "want a list of strings, got %s", describe(m[key]))
	}
	out := make([]string, len(list))
	for i, v := range list {
		s, ok := v.(string)
		if !ok {
			return nil, p.fail(fmt.Sprintf("%s[%d]", join(path, key), i), "want a string, got %s", describe(v))
		}
		if !p.refs(fmt.Sprintf("%s[%d]", join(path, key), i), s) {
			return nil, false
		}
		out[i] = s
	}
	return out, true
}

func (p *parser) stringMap(m map[string]any, path, key string) (map[string]string, bool) {
	if m[key] == nil {
		return nil, true
	}
	obj, ok := m[key].(map[string]any)
	if !ok {
		return nil, p.fail(join(path, key), "want a mapping of strings, got %s", describe(m[key]))
	}
	out := make(map[string]string, len(obj))
	for k, v := range obj {
		s, ok := v.(string)
		if !ok {
			return nil, p.fail(join(join(path, key), k), "want a string, got %s", describe(v))
		}
		if !p.refs(join(join(path, key), k), s) {
			return nil, false
		}
		out[k] = s
	}
	return out, true
}

var serverKeys = []string{"name", "transport", "url", "headers", "command", "args", "env", "visibility", "package"}

func (p *parser) server(v any, path string) (ServerConfig, bool) {
	m, ok := p.object(v, path, serverKeys...)
	if !ok {
		return ServerConfig{}, false
	}
	s := ServerConfig{where: path}
	ok = p.scalar(m, path, &s) && p.lists(m, path, &s) && p.visibility(m, path, &s)
	return s, ok && p.check(m, path, &s)
}

func (p *parser) scalar(m map[string]any, path string, s *ServerConfig) bool {
	var ok1, ok2, ok3, ok4, ok5 bool
	s.Name, ok1 = p.str(m, path, "name")
	s.Transport, ok2 = p.str(m, path, "transport")
	s.URL, ok3 = p.str(m, path, "url")
	s.Command, ok4 = p.str(m, path, "command")
	s.Package, ok5 = p.str(m, path, "package")
	return ok1 && ok2 && ok3 && ok4 && ok5 && p.checkPackage(path, s.Package)
}

// packageRE is a package reference as npm names them, with an optional
// version: "name", "@scope/name", "name@1.2.3", "@scope/name@^1".
var packageRE = regexp.MustCompile(`^(@[a-z0-9][a-z0-9._~-]*/)?[a-z0-9][a-z0-9._~-]*(@[A-Za-z0-9.^~<>=*+_-]+)?$`)

func (p *parser) checkPackage(path, pkg string) bool {
	if pkg != "" && (len(pkg) > 214 || !packageRE.MatchString(pkg)) {
		return p.fail(join(path, "package"), "%q is not a package name (name, @scope/name, optionally @version)", pkg)
	}
	return true
}

// packageRunners are the commands that run a published package by name,
// with the words before the name ("pnpm dlx").
var packageRunners = map[string][]string{"npx": nil, "bunx": nil, "npm": {"exec"}, "pnpm": {"dlx"}, "yarn": {"dlx"}}

// stdioPackage is the package a stdio server's command runs (npx -y
// @scope/name@1.2 …: "@scope/name@1.2"), or "" when the command is not a
// package runner or names none. --package/-p names it outright; else it
// is the first argument that is not a flag.
func stdioPackage(command string, args []string) string {
	sub, ok := packageRunners[filepath.Base(command)]
	if !ok || len(args) < len(sub) || !slices.Equal(args[:len(sub)], sub) {
		return ""
	}
	args = args[len(sub):]
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--package" || a == "-p":
			if i+1 < len(args) {
				return packageOrNone(args[i+1])
			}
			return ""
		case strings.HasPrefix(a, "--package="):
			return packageOrNone(strings.TrimPrefix(a, "--package="))
		case a == "--":
			continue
		case strings.HasPrefix(a, "-"):
			continue
		default:
			return packageOrNone(a)
		}
	}
	return ""
}

func packageOrNone(s string) string {
	if packageRE.MatchString(s) {
		return s
	}
	return ""
}

func (p *parser) lists(m map[string]any, path string, s *ServerConfig) bool {
	var ok1, ok2, ok3 bool
	s.Headers, ok1 = p.stringMap(m, path, "headers")
	s.Env, ok2 = p.stringMap(m, path, "env")
	s.Args, ok3 = p.strings(m, path, "args")
	return ok1 && ok2 && ok3
}

func (p *parser) visibility(m map[string]any, path string, s *ServerConfig) bool {
	if m["visibility"] == nil {
		return true
	}
	vpath := join(path, "visibility")
	vm, ok := p.object(m["visibility"], vpath, "groups", "scopes")
	if !ok {
		return false
	}
	groups, ok1 := p.strings(vm, vpath, "groups")
	scopes, ok2 := p.strings(vm, vpath, "scopes")
	s.Visibility = &catalog.Visibility{Groups: groups, Scopes: scopes}
	return ok1 && ok2
}

// check applies the rules that relate fields: a valid name, a known
// transport, and the fields that transport needs and allows.
func (p *parser) check(m map[string]any, path string, s *ServerConfig) bool {
	if s.Name == "" {
		return p.fail(path+".name", "missing")
	}
	if err := catalog.CheckServerName(s.Name, ""); err != nil {
		return p.fail(path+".name", "%v", err)
	}
	switch s.Transport {
	case "":
		return p.fail(path+".transport", "missing (%s or %s)", TransportHTTP, TransportStdio)
	case TransportHTTP:
		return p.checkHTTP(m, path, s)
	case TransportStdio:
		if !p.checkStdio(m, path, s) {
			return false
		}
		if s.Package == "" && !strings.Contains(strings.Join(s.Args, " "), "${") {
			s.Package = stdioPackage(s.Command, s.Args)
		}
		return true
	}
	return p.fail(path+".transport", "unknown transport %q (want %s or %s)", s.Transport, TransportHTTP, TransportStdio)
}

func (p *parser) checkHTTP(m map[string]any, path string, s *ServerConfig) bool {
	if s.URL == "" {
		return p.fail(path+".url", "missing")
	}
	for _, k := range []string{"command", "args", "env"} {
		if m[k] != nil {
			return p.fail(join(path, k), "not allowed with transport %s", TransportHTTP)
		}
	}
	if strings.HasPrefix(s.URL, "${") { // the scheme comes from the environment
		return true
	}
	u, err := url.Parse(s.URL)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return p.fail(path+".url", "%q is not an http(s) URL", s.URL)
	}
	return true
}

func (p *parser) checkStdio(m map[string]any, path string, s *ServerConfig) bool {
	if s.Command == "" {
		return p.fail(path+".command", "missing")
	}
	for _, k := range []string{"url", "headers"} {
		if m[k] != nil {
			return p.fail(join(path, k), "not allowed with transport %s", TransportStdio)
		}
	}
	return true
}

// refRE matches what may be a variable reference; varRE a valid one.
var (
	refRE = regexp.MustCompile(`\$\{[^}]*\}?`)
	varRE = regexp.MustCompile(`^\$\{[A-Za-z_][A-Za-z0-9_]*\}$`)
)

// refs checks the form of the ${VAR} references in s.
func (p *parser) refs(field, s string) bool {
	for _, ref := range refRE.FindAllString(s, -1) {
		if !varRE.MatchString(ref) {
			return p.fail(field, "bad variable reference %q (want ${NAME}: letters, digits, '_')", ref)
		}
	}
	return true
}

func describe(v any) string {
	switch v.(type) {
	case nil:
		return "nothing"
	case map[string]any:
		return "a mapping"
	case []any:
		return "a list"
	case string:
		return "a string"
	}
	return fmt.Sprintf("%T %v", v, v)
}
