package main

import (
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"unicode"
)

// maxReadme is what README.md may weigh: a newcomer reads it in five
// minutes; the rest is in the rooms' READMEs.
const maxReadme = 16 << 10

// TestDocLinks: README.md stays short, and every doc's relative links
// (with their #anchors) and the repository paths its code names
// (`infra/lab/eval/gate.sh`, `go run ./infra/cmd/mcpsearch`) exist in the
// repository.
func TestDocLinks(t *testing.T) {
	t.Parallel()
	if fi, err := os.Stat(filepath.Join(repoRoot, "README.md")); err != nil || fi.Size() > maxReadme {
		t.Errorf("README.md: %v, size %d; want at most %d bytes", err, sizeOf(fi), maxReadme)
	}
	for _, doc := range repoDocs(t) {
		data, err := os.ReadFile(filepath.Join(repoRoot, doc))
		if err != nil {
			t.Fatal(err)
		}
		for _, problem := range docLinkProblems(doc, string(data)) {
			t.Error(problem)
		}
	}
}

func sizeOf(fi os.FileInfo) int64 {
	if fi == nil {
		return 0
	}
	return fi.Size()
}

var (
	mdLink     = regexp.MustCompile(`\]\(([^)\s]+)\)`)
	codeSpan   = regexp.MustCompile("`([^`]+)`")
	repoPathRE = regexp.MustCompile(`^(?:\./((?:ext|index|functions|infra)(?:/[\w.-]+)*/?)|((?:ext|index|functions|infra|\.ci)/[\w./-]*))$`)
)

// docLinkProblems lists the links and repository paths of doc (a path from
// the repository root) that do not resolve.
func docLinkProblems(doc, text string) []string {
	lines := strings.Split(text, "\n")
	var problems []string
	inFence, fenceLang := false, ""
	for i, line := range lines {
		if lang, ok := strings.CutPrefix(line, "```"); ok {
			inFence, fenceLang = !inFence, strings.TrimSpace(lang)
			continue
		}
		var paths []string
		if inFence {
			if fenceLang == "sh" || fenceLang == "" {
				paths = strings.Fields(line)
			}
		} else {
			for _, m := range codeSpan.FindAllStringSubmatch(line, -1) {
				paths = append(paths, strings.Fields(m[1])...)
			}
			for _, m := range mdLink.FindAllStringSubmatch(codeSpan.ReplaceAllString(line, ""), -1) {
				if p := linkProblem(doc, m[1]); p != "" {
					problems = append(problems, fmt.Sprintf("%s:%d: %s", doc, i+1, p))
				}
			}
		}
		for _, p := range paths {
			if !repoPathExists(p) {
				problems = append(problems, fmt.Sprintf("%s:%d: %s does not exist in the repository", doc, i+1, p))
			}
		}
	}
	return problems
}

// linkProblem says what is wrong with a relative link of doc, or "".
func linkProblem(doc, target string) string {
	if strings.Contains(target, "://") || strings.HasPrefix(target, "mailto:") {
		return ""
	}
	file, anchor, _ := strings.Cut(target, "#")
	resolved := doc
	if file != "" {
		resolved = filepath.ToSlash(filepath.Join(filepath.Dir(doc), file))
	}
	if strings.HasPrefix(resolved, "../") || resolved == ".." {
		return fmt.Sprintf("link %s leaves the repository", target)
	}
	if _, err := os.Stat(filepath.Join(repoRoot, resolved)); err != nil {
		return fmt.Sprintf("link %s: %s does not exist", target, resolved)
	}
	if anchor == "" {
		return ""
	}
	data, err := os.ReadFile(filepath.Join(repoRoot, resolved))
	if err != nil || !strings.HasSuffix(resolved, ".md") {
		return fmt.Sprintf("link %s: an anchor into %s, which is not a doc", target, resolved)
	}
	if !slices.Contains(headingAnchors(string(data)), anchor) {
		return fmt.Sprintf("link %s: %s has no heading #%s", target, resolved, anchor)
	}
	return ""
}

// headingAnchors returns the anchors GitHub gives a doc's headings: lower
// case, punctuation dropped, spaces as hyphens, repeats numbered.
func headingAnchors(text string) []string {
	var anchors []string
	seen := map[string]int{}
	inFence := false
	for _, line := range strings.Split(text, "\n") {
		if strings.HasPrefix(line, "```") {
			inFence = !inFence
		}
		title, ok := strings.CutPrefix(strings.TrimLeft(line, "#"), " ")
		if inFence || !ok || !strings.HasPrefix(line, "#") {
			continue
		}
		var b strings.Builder
		for _, r := range strings.ToLower(strings.TrimSpace(title)) {
			switch {
			case r == ' ':
				b.WriteRune('-')
			case r == '-' || r == '_' || unicode.IsLetter(r) || unicode.IsDigit(r):
				b.WriteRune(r)
			}
		}
		a := b.String()
		if n := seen[a]; n > 0 {
			anchors = append(anchors, fmt.Sprintf("%s-%d", a, n))
		} else {
			anchors = append(anchors, a)
		}
		seen[a]++
	}
	return anchors
}

// repoPathExists reports whether a word of a doc's code that looks like a
// repository path (ext/…, index/…, functions/…, infra/…, .ci/…, or ./ and a
// room) names something that exists; other words pass. A Go identifier
// after the package (infra/lab/bench.ScaleCatalog) is allowed.
func repoPathExists(word string) bool {
	word = strings.Trim(word, "()[],;:'\"")
	m := repoPathRE.FindStringSubmatch(word)
	if m == nil {
		return true
	}
	p := strings.TrimSuffix(m[1]+m[2], "/")
	if _, err := os.Stat(filepath.Join(repoRoot, p)); err == nil {
		return true
	}
	if pkg, ident, ok := cutLast(p, "."); ok && ident != "" && unicode.IsUpper([]rune(ident)[0]) {
		_, err := os.Stat(filepath.Join(repoRoot, pkg))
		return err == nil
	}
	return false
}

func cutLast(s, sep string) (string, string, bool) {
	i := strings.LastIndex(s, sep)
	if i < 0 {
		return s, "", false
	}
	return s[:i], s[i+len(sep):], true
}

// outsideRefs are names of files that live outside the repository, which
// nothing in it may cite: a clone does not have them.
var outsideRefs = []string{"DESIGN" + ".md", "STYLE" + ".md", "NOTES" + ".md", "../" + "shared"}

// TestNoOutsideReferences: no doc, code or script of the repository cites
// a file outside it, and the eval's reference figures are cited by their
// path in the repository.
func TestNoOutsideReferences(t *testing.T) {
	t.Parallel()
	reference := "REFERENCE" + ".md"
	err := filepath.WalkDir(repoRoot, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (d.Name() == "node_modules" || d.Name() == ".git") {
			return filepath.SkipDir
		}
		if d.IsDir() || !isSourceOrDoc(p) {
			return nil
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(repoRoot, p)
		rel = filepath.ToSlash(rel)
		for _, ref := range outsideRefs {
			if strings.Contains(string(data), ref) {
				t.Errorf("%s cites %s, which is not in the repository", rel, ref)
			}
		}
		if !strings.HasPrefix(rel, "infra/lab/eval/testdata/") && strings.Count(string(data), reference) != strings.Count(string(data), "testdata/"+reference) {
			t.Errorf("%s cites %s without its path, infra/lab/eval/testdata/%s", rel, reference, reference)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
}

func isSourceOrDoc(p string) bool {
	switch filepath.Ext(p) {
	case ".go", ".md", ".sh", ".yaml", ".yml", ".mjs", ".js", ".json", ".toml":
		return !strings.Contains(p, string(filepath.Separator)+"catalog"+string(filepath.Separator))
	}
	base := filepath.Base(p)
	return base == "Makefile" || base == "run"
}
