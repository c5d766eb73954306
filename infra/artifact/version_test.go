package artifact

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

func writeTree(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		path := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// TestSourceVersionOutsideGit: a tree without .git (sam build's scratch
// copy) is named by a digest of its source, not "dev": the same for a copy,
// different for a change, blind to node_modules and .aws-sam.
func TestSourceVersionOutsideGit(t *testing.T) {
	src := map[string]string{"go.mod": "module example\n", "main.go": "package main\n", VersionFile: "$Format:%(describe:tags=true) %h$\n"}
	a := writeTree(t, src)
	v, origin, err := SourceVersion(a)
	if err != nil {
		t.Fatal(err)
	}
	if origin != FromContent || !strings.HasPrefix(v, "src-") || len(v) != len("src-")+12 {
		t.Fatalf("SourceVersion = %q (%s), want src-<12 hex> from the content", v, origin)
	}
	withPackages := map[string]string{"infra/node_modules/x/index.js": "x", ".aws-sam/build/f": "y"}
	for k, c := range src {
		withPackages[k] = c
	}
	if v2, _, _ := SourceVersion(writeTree(t, withPackages)); v2 != v {
		t.Errorf("node_modules and .aws-sam changed the version: %q, want %q", v2, v)
	}
	src["main.go"] = "package main // changed\n"
	if v3, _, _ := SourceVersion(writeTree(t, src)); v3 == v {
		t.Errorf("a changed source keeps the version %q", v)
	}
}

// TestSourceVersionFile: the VERSION file git archive fills in names the
// version (its tag; the commit when there is no tag).
func TestSourceVersionFile(t *testing.T) {
	for content, want := range map[string]string{"v1.4.0 3f2a91c\n": "v1.4.0", " 3f2a91c\n": "3f2a91c"} {
		v, origin, err := SourceVersion(writeTree(t, map[string]string{"go.mod": "module example\n", VersionFile: content}))
		if err != nil || v != want || origin != FromFile {
			t.Errorf("VERSION %q: SourceVersion = %q, %q, %v; want %q from the file", content, v, origin, err, want)
		}
	}
}

// TestSourceVersionGit: in a checkout, git describe names it, and git
// archive fills in the repository's own VERSION file (export-subst).
func TestSourceVersionGit(t *testing.T) {
	if _, err := exec.LookPath("git"); err != nil {
		t.Skip("git is not installed")
	}
	dir := writeTree(t, map[string]string{"go.mod": "module example\n", VersionFile: "$Format:%(describe:tags=true) %h$\n", ".gitattributes": VersionFile + " export-subst\n"})
	git := func(args ...string) string {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.name=t", "-c", "user.email=t@example.com"}, args...)...)
		cmd.Dir = dir
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
		return string(out)
	}
	git("init", "-q")
	git("add", ".")
	git("commit", "-q", "-m", "first")
	git("tag", "v0.3.0")
	if v, origin, err := SourceVersion(dir); err != nil || v != "v0.3.0" || origin != FromGit {
		t.Errorf("SourceVersion of a tagged checkout = %q, %q, %v; want v0.3.0 from git describe", v, origin, err)
	}
	out := filepath.Join(t.TempDir(), "archive")
	git("archive", "--prefix=archive/", "-o", out+".tar", "HEAD")
	cmd := exec.Command("tar", "-xf", out+".tar", "-C", filepath.Dir(out))
	if b, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("tar: %v\n%s", err, b)
	}
	if v, origin, err := SourceVersion(out); err != nil || v != "v0.3.0" || origin != FromFile {
		t.Errorf("SourceVersion of git archive's tree = %q, %q, %v; want v0.3.0 from the VERSION file", v, origin, err)
	}
}

// TestRepositoryVersionFileIsFilledByGitArchive: the repository's own
// VERSION file is the placeholder and .gitattributes marks it export-subst.
func TestRepositoryVersionFileIsFilledByGitArchive(t *testing.T) {
	root, err := FindModule(".")
	if err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(root, VersionFile))
	if err != nil || !strings.Contains(string(data), "$Format:%(describe:tags=true)") {
		t.Errorf("%s: %q, %v; want git archive's placeholder $Format:%%(describe:tags=true) %%h$", VersionFile, data, err)
	}
	attrs, err := os.ReadFile(filepath.Join(root, ".gitattributes"))
	if err != nil || !strings.Contains(string(attrs), VersionFile+" export-subst") {
		t.Errorf(".gitattributes: %q, %v; want %q", attrs, err, VersionFile+" export-subst")
	}
}
