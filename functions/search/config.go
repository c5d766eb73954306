package main

import (
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"math"
	"net"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/auth"
	"github.com/mcpsearch/mcpsearch/ext/embed"
	"github.com/mcpsearch/mcpsearch/ext/server"
	"github.com/mcpsearch/mcpsearch/index"
)

// The function's configuration: every environment variable it reads is a
// row of [settings], read once by [readConfig] into a [Config] that the
// rest of the function takes. The README's Configuration table documents
// the same rows (TestConfigurationTable keeps the two equal).
//
// Reading is strict. An unset or empty variable takes its default; any
// other value must be exactly one the variable accepts — no white space
// around it, no other spelling or case — or the start stops with an error
// naming the variable and what it accepts (in Lambda, reported to the
// runtime API as an init error). The checks that need several variables
// (an auth mode and its settings, none on a public address) are made by
// [Config.check]; the one that needs the index (the always-listed tools)
// when it opens.

// lookupFunc reads one environment variable, as os.LookupEnv does.
type lookupFunc func(name string) (string, bool)

// Config is the function's configuration, read by [readConfig].
type Config struct {
	// Set by Lambda.
	RuntimeAPI string          // AWS_LAMBDA_RUNTIME_API: set means the function runs in Lambda
	TaskRoot   string          // LAMBDA_TASK_ROOT, default /var/task
	AWS        aws.Credentials // the function's own credentials, which read MCPSEARCH_SECRETS_ARN

	Index, Catalog, CacheDir string // the bundle, or the catalog to build and where
	// LibraryOff (MCPSEARCH_LIBRARY=off) builds the catalog at start
	// without the library of public servers' requests.
	LibraryOff         bool
	Addr               string // local listen address
	PageSize           int    // 0: ext.DefaultPageSize
	CursorKey          []byte // nil: the bundle's own key
	LogLevel           slog.Level
	Playground         bool
	UpstreamTimeout    time.Duration // 0: the gateway's default
	UpstreamMaxBytes   int64         // 0: upstream.DefaultMaxResultBytes
	ListMode           server.ListMode
	AlwaysTools        []string
	RulesOff           []string // retrieval rules switched off (index.Rules)
	MetaThresholdChars int      // 0: server.DefaultMetaThreshold
	metaThreshold      metaThreshold
	DirectoryChars     int // 0: server.DefaultDirectoryChars; < 0: no directory
	MaxInFlight        int // 0: server.DefaultMaxInFlight
	ResponseMaxBytes   int // 0: server.DefaultMaxResponseBytes
	SecretsARN         string
	Embed              embedConfig // hosted query vectors (hosted.go)

	Auth      auth.Mode // "" when unset: none locally, an error in Lambda
	PublicURL string    // the MCP endpoint's public URL, for the auth challenge and metadata
	Bearer    []auth.BearerToken
	JWT       auth.JWTOptions
	jwt       *auth.JWTVerifier // made by check in jwt mode

	// Env looks up the variables upstreams name as ${VAR}, at call time.
	Env lookupFunc

	playground *bool // as set; nil: on locally, off in Lambda
}

func (c *Config) inLambda() bool { return c.RuntimeAPI != "" }

// setting is one environment variable: what it accepts, and how its value
// (set, not empty, without surrounding white space) goes into a Config.
type setting struct {
	name    string
	accepts string
	secret  bool // its value is never quoted in an error
	parse   func(c *Config, v string) error
}

// errRefused is a value parse refuses without more to say than what the
// variable accepts.
var errRefused = errors.New("refused")

// settings lists every variable the function reads, in the order they are
// read: the runtime API first, since it decides the defaults of others.
var settings = []setting{
	{"AWS_LAMBDA_RUNTIME_API", "host:port (Lambda sets it)", false, func(c *Config, v string) error {
		_, err := hostPort(v)
		c.RuntimeAPI = v
		return err
	}},
	{"LAMBDA_TASK_ROOT", "an absolute path (Lambda sets it)", false, func(c *Config, v string) error {
		c.TaskRoot = v
		return refuseUnless(filepath.IsAbs(v))
	}},
	{"AWS_ACCESS_KEY_ID", "an access key id (Lambda sets it)", true, func(c *Config, v string) error { c.AWS.AccessKeyID = v; return nil }},
	{"AWS_SECRET_ACCESS_KEY", "a secret access key (Lambda sets it)", true, func(c *Config, v string) error { c.AWS.SecretAccessKey = v; return nil }},
	{"AWS_SESSION_TOKEN", "a session token (Lambda sets it)", true, func(c *Config, v string) error { c.AWS.SessionToken = v; return nil }},
	{"MCPSEARCH_INDEX", "a bundle directory", false, func(c *Config, v string) error { c.Index = v; return nil }},
	{"MCPSEARCH_CATALOG", "a catalog directory", false, func(c *Config, v string) error { c.Catalog = v; return nil }},
	{"MCPSEARCH_CACHE_DIR", "a directory", false, func(c *Config, v string) error { c.CacheDir = v; return nil }},
	{"MCPSEARCH_LIBRARY", "on or off", false, func(c *Config, v string) error {
		c.LibraryOff = v == "off"
		return oneOf(v, "on", "off")
	}},
	{"MCPSEARCH_ADDR", "host:port with a port from 0 to 65535, such as 127.0.0.1:8080", false, func(c *Config, v string) error {
		c.Addr = v
		_, err := hostPort(v)
		return err
	}},
	{"MCPSEARCH_PAGE_SIZE", fmt.Sprintf("a whole number from 1 to %d", ext.MaxPageSize), false, func(c *Config, v string) (err error) {
		c.PageSize, err = wholeNumber(v, 1, ext.MaxPageSize)
		return err
	}},
	{"MCPSEARCH_CURSOR_KEY", "at least 16 bytes in hex", true, func(c *Config, v string) (err error) {
		c.CursorKey, err = hexKey(v, 16)
		return err
	}},
	{"MCPSEARCH_LOG_LEVEL", "debug, info, warn or error", false, func(c *Config, v string) error {
		level, ok := logLevels[v]
		c.LogLevel = level
		return refuseUnless(ok)
	}},
	{"MCPSEARCH_PLAYGROUND", "on or off", false, func(c *Config, v string) error {
		on := v == "on"
		c.playground = &on
		return oneOf(v, "on", "off")
	}},
	{"MCPSEARCH_UPSTREAM_TIMEOUT", "a positive Go duration such as 30s", false, func(c *Config, v string) error {
		d, err := time.ParseDuration(v)
		c.UpstreamTimeout = d
		return refuseUnless(err == nil && d > 0)
	}},
	{"MCPSEARCH_UPSTREAM_MAX_BYTES", "a whole number of bytes of at least 1, such as 3000000", false, func(c *Config, v string) error {
		n, err := wholeNumber(v, 1, math.MaxInt)
		c.UpstreamMaxBytes = int64(n)
		return err
	}},
	{"MCPSEARCH_LIST_MODE", "full, meta or auto", false, func(c *Config, v string) error {
		c.ListMode = server.ListMode(v)
		return oneOf(c.ListMode, server.ListFull, server.ListMeta, server.ListAuto)
	}},
	{"MCPSEARCH_ALWAYS_TOOLS", "comma-separated canonical tool names (server__tool)", false, func(c *Config, v string) (err error) {
		c.AlwaysTools, err = nameList(v)
		return err
	}},
	{"MCPSEARCH_RULES_OFF", "comma-separated names of retrieval rules, such as errand-model (mcpsearch-lab eval --ablate lists them)", false, func(c *Config, v string) (err error) {
		if c.RulesOff, err = nameList(v); err != nil {
			return err
		}
		return knownRules(c.RulesOff)
	}},
	{"MCPSEARCH_META_THRESHOLD_CHARS", "a whole number of at least 1", false, func(c *Config, v string) (err error) {
		c.MetaThresholdChars, err = wholeNumber(v, 1, 1<<31-1)
		c.metaThreshold.chars = true
		return err
	}},
	{"MCPSEARCH_META_THRESHOLD_TOKENS", "a whole number of tokens such as 18000, or a share of a context window such as 10%of180000 " +
		"(a percent above 0 and at most 100, then of and a whole number of tokens)", false, func(c *Config, v string) (err error) {
		c.metaThreshold.tokens, err = tokenThreshold(v)
		return err
	}},
	{"MCPSEARCH_CHARS_PER_TOKEN", "a decimal number from 0.5 to 10, such as 2.5", false, func(c *Config, v string) (err error) {
		c.metaThreshold.charsPerToken, err = decimal(v, 0.5, 10)
		return err
	}},
	{"MCPSEARCH_DIRECTORY_CHARS", "a whole number of characters from 0 (no directory of servers) to 100000", false, func(c *Config, v string) (err error) {
		c.DirectoryChars, err = wholeNumber(v, 0, 100_000)
		if c.DirectoryChars == 0 {
			c.DirectoryChars = -1
		}
		return err
	}},
	{"MCPSEARCH_MAX_IN_FLIGHT", "a whole number of requests from 1 to 100000", false, func(c *Config, v string) (err error) {
		c.MaxInFlight, err = wholeNumber(v, 1, 100_000)
		return err
	}},
	{"MCPSEARCH_RESPONSE_MAX_BYTES", "a whole number of bytes from 65536 to 1000000000, such as 3100000", false, func(c *Config, v string) (err error) {
		c.ResponseMaxBytes, err = wholeNumber(v, 64<<10, 1_000_000_000)
		return err
	}},
	{"MCPSEARCH_SECRETS_ARN", "a Secrets Manager secret ARN (arn:aws:secretsmanager:REGION:ACCOUNT:secret:NAME)", false, func(c *Config, v string) error {
		c.SecretsARN = v
		_, err := arnRegion(v)
		return refuseUnless(err == nil)
	}},
	{"MCPSEARCH_EMBED", "on or off", false, func(c *Config, v string) error {
		c.Embed.Off = v == "off"
		return oneOf(v, "on", "off")
	}},
	{"MCPSEARCH_EMBED_API_KEY", "the API key of the embeddings endpoint", true, func(c *Config, v string) error { c.Embed.APIKey = v; return nil }},
	{"MCPSEARCH_EMBED_ENDPOINT", "an http:// or https:// URL without user, password, query or fragment", true, func(c *Config, v string) error {
		c.Embed.Endpoint = v
		return refuseUnless(embed.CheckEndpoint(v) == nil)
	}},
	{"MCPSEARCH_EMBED_TIMEOUT", "a Go duration from 1ms to 10s, such as 250ms", false, func(c *Config, v string) error {
		d, err := time.ParseDuration(v)
		c.Embed.Timeout = d
		return refuseUnless(err == nil && d >= time.Millisecond && d <= 10*time.Second)
	}},
	{"MCPSEARCH_AUTH", "none, bearer, jwt or aws", false, func(c *Config, v string) error {
		c.Auth = auth.Mode(v)
		return oneOf(c.Auth, auth.ModeNone, auth.ModeBearer, auth.ModeJWT, auth.ModeAWS)
	}},
	{"MCPSEARCH_BEARER_SHA256", "comma-separated hex SHA-256 of each accepted token, each optionally =group|group", false, func(c *Config, v string) (err error) {
		c.Bearer, err = auth.ParseBearer(v)
		return err
	}},
	{"MCPSEARCH_JWT_ISSUER", "the iss of accepted tokens", false, func(c *Config, v string) error { c.JWT.Issuer = v; return nil }},
	{"MCPSEARCH_JWT_AUDIENCE", "the aud of accepted tokens", false, func(c *Config, v string) error { c.JWT.Audience = v; return nil }},
	{"MCPSEARCH_JWT_JWKS_FILE", "a JSON Web Key Set file (RS256, ES256)", false, func(c *Config, v string) error { c.JWT.JWKSFile = v; return nil }},
	{"MCPSEARCH_JWT_KEY_FILE", "a PEM public key or certificate file", false, func(c *Config, v string) error { c.JWT.KeyFile = v; return nil }},
	{"MCPSEARCH_JWT_HS256_SECRET", "a shared secret of at least 32 bytes", true, func(c *Config, v string) error {
		c.JWT.HS256Secret = []byte(v)
		return refuseUnless(len(v) >= 32)
	}},
	{"MCPSEARCH_PUBLIC_URL", "the https:// URL clients reach the MCP endpoint at, such as https://search.example.com/mcp (http:// only for a loopback host), without credentials, query or fragment", false, func(c *Config, v string) error {
		c.PublicURL = v
		return auth.CheckResourceURL(v)
	}},
	{"MCPSEARCH_JWT_GROUPS_CLAIM", "the name of the claim holding groups", false, func(c *Config, v string) error { c.JWT.GroupsClaim = v; return nil }},
}

var logLevels = map[string]slog.Level{"debug": slog.LevelDebug, "info": slog.LevelInfo, "warn": slog.LevelWarn, "error": slog.LevelError}

// configVariables lists the names of every variable the function reads.
func configVariables() []string {
	names := make([]string, len(settings))
	for i, s := range settings {
		names[i] = s.name
	}
	return names
}

// readConfig reads every setting from lookup. It returns the config even
// with an error (all the refused values, joined), so that the caller knows
// whether it runs in Lambda and at what log level.
func readConfig(lookup lookupFunc) (*Config, error) {
	c := &Config{TaskRoot: "/var/task", Addr: "127.0.0.1:8080", Env: lookup}
	var errs []error
	for _, s := range settings {
		v, _ := lookup(s.name)
		if v == "" {
			continue
		}
		if err := s.read(c, v); err != nil {
			errs = append(errs, err)
		}
	}
	c.Playground = !c.inLambda()
	if c.playground != nil {
		c.Playground = *c.playground
	}
	return c, errors.Join(errs...)
}

// read parses v into c, or says why not.
func (s setting) read(c *Config, v string) error {
	switch trimmed := strings.TrimSpace(v); {
	case trimmed == "":
		return fmt.Errorf("%s is not set: its value %s is only white space (want %s)", s.name, s.shown(v), s.accepts)
	case trimmed != v:
		return s.refuse(v, errors.New("white space around the value"))
	}
	if err := s.parse(c, v); err != nil {
		return s.refuse(v, err)
	}
	return nil
}

// refuse says why the value v is refused, naming the variable, the value
// (unless secret) and what the variable accepts.
func (s setting) refuse(v string, why error) error {
	if errors.Is(why, errRefused) {
		return fmt.Errorf("%s=%s: want %s", s.name, s.shown(v), s.accepts)
	}
	return fmt.Errorf("%s=%s: %w (want %s)", s.name, s.shown(v), why, s.accepts)
}

func (s setting) shown(v string) string {
	if s.secret {
		return "(value hidden)"
	}
	return strconv.Quote(v)
}

// settingNamed returns the setting of a variable.
func settingNamed(name string) setting {
	i := slices.IndexFunc(settings, func(s setting) bool { return s.name == name })
	return settings[i]
}

// check makes the checks that need several settings: the auth mode
// against where the function runs and the mode's own settings, and the
// list threshold in characters or tokens.
func (c *Config) check() error {
	return errors.Join(c.checkAuth(), c.metaThreshold.apply(c))
}

func refuseUnless(ok bool) error {
	if ok {
		return nil
	}
	return errRefused
}

// hostPort checks a host:port whose port is a number.
func hostPort(v string) (string, error) {
	host, port, err := net.SplitHostPort(v)
	if err != nil {
		return "", errRefused
	}
	_, err = wholeNumber(port, 0, 65535)
	return host, err
}

// oneOf accepts v only if it is one of values, exactly.
func oneOf[S ~string](v S, values ...S) error {
	return refuseUnless(slices.Contains(values, v))
}

// wholeNumber accepts digits only (no sign) for a number from lo to hi.
func wholeNumber(v string, lo, hi int) (int, error) {
	n, err := strconv.Atoi(v)
	if err != nil || n < lo || n > hi || strings.Trim(v, "0123456789") != "" {
		return 0, errRefused
	}
	return n, nil
}

func hexKey(v string, minBytes int) ([]byte, error) {
	key, err := hex.DecodeString(v)
	if err != nil || len(key) < minBytes {
		return nil, errRefused
	}
	return key, nil
}

// knownRules refuses a name no retrieval rule has.
func knownRules(names []string) error {
	for _, n := range names {
		if !slices.ContainsFunc(index.Rules(), func(r index.Rule) bool { return r.Name == n }) {
			return fmt.Errorf("no retrieval rule is named %q", n)
		}
	}
	return nil
}

// nameList splits a comma-separated list; white space around a name is
// allowed, an empty name is not.
func nameList(v string) ([]string, error) {
	var out []string
	for i, f := range strings.Split(v, ",") {
		if f = strings.TrimSpace(f); f == "" {
			return nil, fmt.Errorf("name %d is empty", i+1)
		}
		out = append(out, f)
	}
	return out, nil
}
