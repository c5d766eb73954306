package artifact

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
)

// VersionFile is the file at the module's root that names the version of
// a source tree without git metadata. It holds a git archive placeholder
// (.gitattributes marks it export-subst), so a tarball made by git archive
// (GitHub's source downloads are) carries the tag and commit it was made
// from; a release may also write it by hand.
const VersionFile = "VERSION"

// Version origins, as SourceVersion reports them.
const (
	FromGit     = "git describe"
	FromFile    = VersionFile + " file"
	FromContent = "a digest of the source tree: no git metadata, " + VersionFile + " not filled in"
)

// unversionedDirs are the directories a source tree may hold that are not
// part of the source (git metadata, npm packages the tests install, build
// output): the content digest skips them, as .gitignore does.
var unversionedDirs = []string{".git", ".aws-sam", "dist", "node_modules", "results"}

// SourceVersion names the version of the module at dir and says where the
// name came from: git describe in a git checkout; else the filled-in
// VersionFile; else "src-" and the first 12 hex digits of the SHA-256 of
// the tree's files (paths and contents), which tells two different trees
// apart and the same tree the same wherever it is copied (sam build's
// scratch copy has no .git).
func SourceVersion(dir string) (version, origin string, err error) {
	if v := gitDescribe(dir); v != "" {
		return v, FromGit, nil
	}
	if v, err := versionFile(dir); err != nil || v != "" {
		return v, FromFile, err
	}
	digest, err := treeDigest(dir)
	if err != nil {
		return "", "", fmt.Errorf("version of the source tree %s: %w", dir, err)
	}
	return "src-" + digest[:12], FromContent, nil
}

// gitDescribe returns git describe's name of dir's checkout, or "" when
// dir is not in one (or git is missing).
func gitDescribe(dir string) string {
	cmd := exec.Command("git", "describe", "--tags", "--always", "--dirty")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
}

// versionFile returns the first word of dir's VersionFile: the tag git
// archive filled in, else its commit. It returns "" when the file is
// missing or still holds the unfilled placeholder.
func versionFile(dir string) (string, error) {
	data, err := os.ReadFile(filepath.Join(dir, VersionFile))
	if os.IsNotExist(err) {
		return "", nil
	}
	if err != nil {
		return "", err
	}
	text := strings.TrimSpace(string(data))
	if strings.Contains(text, "$Format:") {
		return "", nil
	}
	fields := strings.Fields(text)
	if len(fields) == 0 {
		return "", nil
	}
	return fields[0], nil
}

// treeDigest hashes the slash path and content of every regular file under
// dir, outside unversionedDirs, in lexical order.
func treeDigest(dir string) (string, error) {
	h := sha256.New()
	err := filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if path != dir && slices.Contains(unversionedDirs, d.Name()) {
				return filepath.SkipDir
			}
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			return err
		}
		return hashFile(h, filepath.ToSlash(rel), path)
	})
	if err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func hashFile(h io.Writer, name, path string) error {
	f, err := os.Open(path)
	if err != nil {
		return err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	fmt.Fprintf(h, "%s\x00%d\x00", name, fi.Size())
	_, err = io.Copy(h, f)
	return err
}
