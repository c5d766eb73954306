package calltrace

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// hookImport is the import path of the recorder that instrumented
// functions call, and hookName the name they call it by.
const (
	hookImport = "github.com/mcpsearch/mcpsearch/infra/lab/calltrace/hook"
	hookName   = "calltracehook"
)

// copyTree copies the regular files under src to dst, leaving out .git
// and anything that is not a regular file or a directory (go:embed
// refuses links, so the copy holds none).
func copyTree(src, dst string) error {
	return filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(src, path)
		if err != nil {
			return err
		}
		if d.Name() == ".git" {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		target := filepath.Join(dst, rel)
		switch {
		case d.IsDir():
			return os.MkdirAll(target, 0o755)
		case d.Type().IsRegular():
			return copyFile(path, target)
		}
		return nil
	})
}

// copyFile copies one regular file.
func copyFile(src, dst string) error {
	data, err := os.ReadFile(src)
	if err != nil {
		return err
	}
	return os.WriteFile(dst, data, 0o644)
}

// instrumentDirs rewrites, under root, every non-test Go file of the
// directories dirs and those below them (testdata left out) so that each
// function body, closures included, calls the recorder first.
func instrumentDirs(root string, dirs []string) error {
	for _, dir := range dirs {
		err := filepath.WalkDir(filepath.Join(root, dir), func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() && d.Name() == "testdata" {
				return filepath.SkipDir
			}
			if d.IsDir() || !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			return instrumentFile(path)
		})
		if err != nil {
			return fmt.Errorf("instrument %s: %w", dir, err)
		}
	}
	return nil
}

// instrumentFile rewrites one file in place (see Instrument).
func instrumentFile(path string) error {
	src, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	out, err := Instrument(path, src)
	if err != nil {
		return err
	}
	return os.WriteFile(path, out, 0o644)
}

// Instrument returns src (the Go file named name) with a call to the
// recorder as the first statement of every function body, closures
// included, and the recorder's import after the package clause. The text
// is inserted on the lines it follows, so every line keeps its number
// and every comment and directive stays where it was. A file with no
// function body comes back unchanged.
func Instrument(name string, src []byte) ([]byte, error) {
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, name, src, parser.SkipObjectResolution)
	if err != nil {
		return nil, err
	}
	var at []int // offsets just past each body's opening brace
	ast.Inspect(f, func(n ast.Node) bool {
		switch fn := n.(type) {
		case *ast.FuncDecl:
			if fn.Body != nil {
				at = append(at, fset.Position(fn.Body.Lbrace).Offset+1)
			}
		case *ast.FuncLit:
			at = append(at, fset.Position(fn.Body.Lbrace).Offset+1)
		}
		return true
	})
	if len(at) == 0 {
		return src, nil
	}
	slices.Sort(at)
	importAt := fset.Position(f.Name.End()).Offset
	var b strings.Builder
	b.Write(src[:importAt])
	fmt.Fprintf(&b, "; import %s %q", hookName, hookImport)
	last := importAt
	for _, off := range at {
		b.Write(src[last:off])
		b.WriteString(hookName + ".Enter();")
		last = off
	}
	b.Write(src[last:])
	return []byte(b.String()), nil
}
