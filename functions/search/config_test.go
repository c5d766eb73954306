package main

import (
	"bufio"
	"log/slog"
	"maps"
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpsearch/mcpsearch/ext/auth"
	"github.com/mcpsearch/mcpsearch/ext/server"
)

// mapEnv is an environment made of a map.
func mapEnv(env map[string]string) lookupFunc {
	return func(name string) (string, bool) {
		v, ok := env[name]
		return v, ok
	}
}

// configFrom reads and checks the configuration of the environment env.
func configFrom(env map[string]string) (*Config, error) {
	c, err := readConfig(mapEnv(env))
	if err != nil {
		return c, err
	}
	return c, c.check()
}

func mustConfig(tb testing.TB, env map[string]string) *Config {
	tb.Helper()
	c, err := configFrom(env)
	if err != nil {
		tb.Fatal(err)
	}
	return c
}

// TestReadConfig: every variable's accepted spelling lands in its field;
// unset and empty take the defaults.
func TestReadConfig(t *testing.T) {
	def := mustConfig(t, nil)
	if def.Addr != "127.0.0.1:8080" || def.TaskRoot != "/var/task" || def.LogLevel != slog.LevelInfo || !def.Playground || def.Auth != auth.ModeNone {
		t.Errorf("defaults: got %+v", def)
	}
	if empty := mustConfig(t, map[string]string{"MCPSEARCH_PAGE_SIZE": "", "MCPSEARCH_AUTH": "", "MCPSEARCH_SECRETS_ARN": ""}); empty.PageSize != 0 || empty.Auth != auth.ModeNone {
		t.Errorf("empty values: got %+v, want the defaults", empty)
	}
	c := mustConfig(t, map[string]string{
		"AWS_LAMBDA_RUNTIME_API": "127.0.0.1:9001", "LAMBDA_TASK_ROOT": "/opt/task", "AWS_ACCESS_KEY_ID": "AKID",
		"MCPSEARCH_PAGE_SIZE": "1000", "MCPSEARCH_CURSOR_KEY": "00112233445566778899aabbccddeeff", "MCPSEARCH_LOG_LEVEL": "warn",
		"MCPSEARCH_PLAYGROUND": "on", "MCPSEARCH_UPSTREAM_TIMEOUT": "1m30s", "MCPSEARCH_LIST_MODE": "auto",
		"MCPSEARCH_ALWAYS_TOOLS": "a__b, c__d", "MCPSEARCH_META_THRESHOLD_CHARS": "100", "MCPSEARCH_AUTH": "aws",
		"MCPSEARCH_JWT_GROUPS_CLAIM": "cognito:groups", "MCPSEARCH_ADDR": "[::1]:0", "MCPSEARCH_RULES_OFF": "errand-model, fit-model",
	})
	got := []any{c.inLambda(), c.TaskRoot, c.AWS.AccessKeyID, c.PageSize, len(c.CursorKey), c.LogLevel, c.Playground,
		c.UpstreamTimeout, c.ListMode, c.AlwaysTools, c.MetaThresholdChars, c.Auth, c.JWT.GroupsClaim, c.Addr, c.RulesOff}
	want := []any{true, "/opt/task", "AKID", 1000, 16, slog.LevelWarn, true,
		90 * time.Second, server.ListAuto, []string{"a__b", "c__d"}, 100, auth.ModeAWS, "cognito:groups", "[::1]:0", []string{"errand-model", "fit-model"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %v, want %v", got, want)
	}
	if c := mustConfig(t, map[string]string{"AWS_LAMBDA_RUNTIME_API": "127.0.0.1:9001", "MCPSEARCH_AUTH": "none"}); c.Playground {
		t.Error("Lambda: the playground is on by default, want off")
	}
}

// TestConfigRefusals: malformed values are refused naming the variable, the
// value and what the variable accepts, all of them at once; a secret's
// value is never shown. (TestStartRefusesMalformedSetting tries a
// malformed value of every variable.)
func TestConfigRefusals(t *testing.T) {
	t.Parallel()
	_, err := readConfig(mapEnv(map[string]string{"MCPSEARCH_PAGE_SIZE": "0", "MCPSEARCH_LIST_MODE": "Meta",
		"MCPSEARCH_CURSOR_KEY": "not-hex-and-secret", "MCPSEARCH_JWT_HS256_SECRET": "short-secret ", "MCPSEARCH_RULES_OFF": "errand-model,errands"}))
	for _, want := range []string{`MCPSEARCH_PAGE_SIZE="0": want a whole number from 1 to 1000`, `MCPSEARCH_LIST_MODE="Meta": want full, meta or auto`,
		`MCPSEARCH_RULES_OFF="errand-model,errands": no retrieval rule is named "errands" (want comma-separated names of retrieval rules`,
		"MCPSEARCH_CURSOR_KEY=(value hidden): want at least 16 bytes in hex", "MCPSEARCH_JWT_HS256_SECRET=(value hidden): white space around the value"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("got %v, want it to contain %q", err, want)
		}
	}
	if err != nil && (strings.Contains(err.Error(), "not-hex") || strings.Contains(err.Error(), "short-secret")) {
		t.Errorf("got %v: a secret's value is shown", err)
	}
}

// TestAuthMode: none is refused on a listener other than loopback and, in
// Lambda, unless chosen explicitly; aws is refused outside Lambda; a mode
// without its settings is refused.
func TestAuthMode(t *testing.T) {
	for _, test := range []struct {
		mode, addr string
		inLambda   bool
		want       string // an error containing this, or "" for none
	}{
		{"", "127.0.0.1:8080", false, ""},
		{"none", "localhost:8080", false, ""},
		{"none", "[::1]:8080", false, ""},
		{"", "0.0.0.0:8080", false, "not a loopback address"},
		{"none", ":8080", false, "not a loopback address"},
		{"none", "[::]:8080", false, "not a loopback address"},
		{"none", "192.0.2.10:8080", false, "not a loopback address"},
		{"bearer", "0.0.0.0:8080", false, "MCPSEARCH_BEARER_SHA256 is not set"},
		{"jwt", "0.0.0.0:8080", false, "MCPSEARCH_JWT_ISSUER and MCPSEARCH_JWT_AUDIENCE must both be set"},
		{"", "", true, "MCPSEARCH_AUTH is not set"},
		{" ", "", true, "MCPSEARCH_AUTH is not set"},
		{"none", "", true, ""},
		{"aws", "", true, ""},
		{"aws", "127.0.0.1:8080", false, "only in Lambda"},
	} {
		env := map[string]string{"MCPSEARCH_AUTH": test.mode, "MCPSEARCH_ADDR": test.addr}
		if test.inLambda {
			env["AWS_LAMBDA_RUNTIME_API"] = "127.0.0.1:9001"
		}
		_, err := configFrom(env)
		if test.want == "" && err != nil || test.want != "" && (err == nil || !strings.Contains(err.Error(), test.want)) {
			t.Errorf("mode %q on %q (Lambda %v): got %v, want %q", test.mode, test.addr, test.inLambda, err, test.want)
		}
	}
	jwt := maps.Clone(jwtEnv)
	jwt["MCPSEARCH_JWT_KEY_FILE"] = "/etc/key.pem"
	if _, err := configFrom(jwt); err == nil || !strings.Contains(err.Error(), "set exactly one of") {
		t.Errorf("jwt with two keys: got %v, want exactly one asked for", err)
	}
}

// TestConfigurationTable: the Configuration table of this package's
// README.md names every variable the function reads, and reads nothing it
// does not name.
func TestConfigurationTable(t *testing.T) {
	t.Parallel()
	documented := readmeConfigVariables(t)
	read := configVariables()
	for _, name := range read {
		if !slices.Contains(documented, name) {
			t.Errorf("%s is read (config.go) but not in the README's Configuration table", name)
		}
	}
	for _, name := range documented {
		if !slices.Contains(read, name) {
			t.Errorf("%s is in the README's Configuration table but config.go does not read it", name)
		}
	}
}

// readmeConfigVariables returns the variable names (in backquotes, in
// capitals) of the first column of the table under "## Configuration".
func readmeConfigVariables(t *testing.T) []string {
	t.Helper()
	f, err := os.Open("README.md")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	name := regexp.MustCompile("`([A-Z][A-Z0-9_]*)`")
	var names []string
	in := false
	for sc := bufio.NewScanner(f); sc.Scan(); {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "#"):
			in = line == "## Configuration"
		case in && strings.HasPrefix(line, "| `"):
			first := strings.SplitN(line, " | ", 2)[0]
			for _, m := range name.FindAllStringSubmatch(first, -1) {
				names = append(names, m[1])
			}
		}
	}
	if len(names) == 0 {
		t.Fatal(`functions/search/README.md: no variables found in the table under "## Configuration"`)
	}
	return names
}
