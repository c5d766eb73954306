package e2e

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestTemplateMakeBuild dry-runs the Makefile recipe that `sam build` runs
// for each function and checks the commands it would run.
func TestTemplateMakeBuild(t *testing.T) {
	t.Parallel()
	makeBin, err := exec.LookPath("make")
	if err != nil {
		missingTool(t, "make is not installed", "apt-get install make")
	}
	for _, f := range loadFunctions(t) {
		t.Run(f.id, func(t *testing.T) {
			codeURI, _ := f.properties["CodeUri"].(string)
			dir := filepath.Join(repoRoot, filepath.FromSlash(codeURI))
			makefile, err := os.ReadFile(filepath.Join(dir, "Makefile"))
			if err != nil {
				t.Fatal(err)
			}
			catalog, ok := makeVariable(makefile, "CATALOG_"+f.id)
			if !ok {
				t.Fatalf("the Makefile does not define CATALOG_%s", f.id)
			}
			artifacts := t.TempDir()
			out, err := runMake(makeBin, dir, "-n", "build-"+f.id, "ARTIFACTS_DIR="+artifacts)
			if err != nil {
				t.Fatalf("make -n build-%s: %v\n%s", f.id, err, out)
			}
			lines := commandLines(out)

			pkg := findCommand(lines, "go", "run", "./infra/cmd/mcpsearch", "package")
			if pkg == nil {
				t.Fatalf("make -n build-%s does not build the artifact with go run ./infra/cmd/mcpsearch package:\n%s", f.id, out)
			}
			for flag, want := range map[string]string{"--catalog": catalog, "--out": artifacts, "--arch": "arm64", "--zip": "false"} {
				if got := flagValue(pkg, flag); filepath.Clean(got) != filepath.Clean(want) {
					t.Errorf("package %s %q, want %q (%q)", flag, got, want, pkg)
				}
			}
			if slices.ContainsFunc(pkg, func(s string) bool { return strings.HasPrefix(s, "GOOS=") || strings.HasPrefix(s, "GOARCH=") }) {
				t.Errorf("the packager must run on the build host, not for Lambda: %q", pkg)
			}
		})
	}

	t.Run("undefined function", func(t *testing.T) {
		out, err := runMake(makeBin, repoRoot, "-n", "build-NoSuchFunction", "ARTIFACTS_DIR="+t.TempDir())
		var exit *exec.ExitError
		if !errors.As(err, &exit) {
			t.Fatalf("make -n build-NoSuchFunction: err = %v, want a failure\n%s", err, out)
		}
		if !strings.Contains(out, "CATALOG_NoSuchFunction") {
			t.Errorf("make -n build-NoSuchFunction fails without naming CATALOG_NoSuchFunction:\n%s", out)
		}
	})
	t.Run("no ARTIFACTS_DIR", func(t *testing.T) {
		out, err := runMake(makeBin, repoRoot, "-n", "build-SearchFunction")
		var exit *exec.ExitError
		if !errors.As(err, &exit) || !strings.Contains(out, "ARTIFACTS_DIR") {
			t.Errorf("make -n build-SearchFunction without ARTIFACTS_DIR: err = %v, want a failure naming ARTIFACTS_DIR\n%s", err, out)
		}
	})
}

// runMake runs make in dir, in an environment cleared of the variables
// that would change what the Makefile does (ARCH, CATALOG_*, a parent
// make's flags), and returns its combined output.
func runMake(makeBin, dir string, args ...string) (string, error) {
	cmd := exec.Command(makeBin, args...)
	cmd.Dir = dir
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "ARCH", name == "ARTIFACTS_DIR", name == "MAKEFLAGS", name == "MFLAGS",
			name == "MAKELEVEL", name == "GO", strings.HasPrefix(name, "CATALOG_"):
			continue
		}
		cmd.Env = append(cmd.Env, kv)
	}
	out, err := cmd.CombinedOutput()
	return string(out), err
}

// makeVariable returns the value of a simple variable assignment
// (NAME = value, :=, ::=, ?=) at the start of a Makefile line.
func makeVariable(makefile []byte, name string) (string, bool) {
	re := regexp.MustCompile(`(?m)^(?:override\s+|export\s+)?` + regexp.QuoteMeta(name) + `\s*(?::{1,2}=|\?=|=)[ \t]*(.*?)[ \t]*(?:#.*)?$`)
	m := re.FindSubmatch(makefile)
	if m == nil || len(m[1]) == 0 {
		return "", false
	}
	return string(m[1]), true
}

// commandLines splits make -n output into commands, each split into words
// the way sh would (quotes removed, no expansion).
func commandLines(out string) [][]string {
	var lines [][]string
	for _, l := range strings.Split(out, "\n") {
		if w := shellWords(l); len(w) > 0 {
			lines = append(lines, w)
		}
	}
	return lines
}

func shellWords(s string) []string {
	var words []string
	var cur strings.Builder
	inWord := false
	var quote rune
	for _, r := range s {
		switch {
		case quote != 0 && r == quote:
			quote = 0
		case quote != 0:
			cur.WriteRune(r)
		case r == '"' || r == '\'':
			quote, inWord = r, true
		case r == ' ' || r == '\t':
			if inWord {
				words = append(words, cur.String())
				cur.Reset()
				inWord = false
			}
		default:
			cur.WriteRune(r)
			inWord = true
		}
	}
	if inWord {
		words = append(words, cur.String())
	}
	return words
}

// findCommand returns the first command holding seq as consecutive words.
func findCommand(lines [][]string, seq ...string) []string {
	for _, l := range lines {
		for i := 0; i+len(seq) <= len(l); i++ {
			if slices.Equal(l[i:i+len(seq)], seq) {
				return l
			}
		}
	}
	return nil
}

// flagValue returns the value of flag in words, given as "flag value" or
// "flag=value".
func flagValue(words []string, flag string) string {
	for i, w := range words {
		if w == flag && i+1 < len(words) {
			return words[i+1]
		}
		if v, ok := strings.CutPrefix(w, flag+"="); ok {
			return v
		}
	}
	return ""
}
