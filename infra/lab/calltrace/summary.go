package calltrace

import (
	"path"
	"path/filepath"
	"strings"

	"github.com/mcpsearch/mcpsearch/infra/lab/calltrace/hook"
)

// module is the module path that package names are given relative to.
const module = "github.com/mcpsearch/mcpsearch/"

// Summary is what a trace says about the path of one request through the
// code: each package and file named from the module root.
type Summary struct {
	Entries int `json:"entries"` // functions entered
	// Packages and Files are the packages and files entered, in the
	// order of their first entry.
	Packages []string `json:"packages"`
	Files    []string `json:"files"`
	// PackageVisits is the trace read as packages: each run of entries
	// into one package is one visit. PackageReturns counts the visits to a
	// package the trace had already visited and left; FileVisits and
	// FileReturns count the same by file.
	PackageVisits  []string `json:"packageVisits"`
	PackageReturns int      `json:"packageReturns"`
	FileVisits     int      `json:"fileVisits"`
	FileReturns    int      `json:"fileReturns"`
	// PackageCallbacks counts the entries into a package that called,
	// further down the stack, into another package that is now calling
	// back (retrieval asking the index for a table while index.Search
	// waits on retrieval); Callbacks names each such pair, "from → into",
	// with its count. FileCallbacks counts the same by file.
	PackageCallbacks int            `json:"packageCallbacks"`
	Callbacks        map[string]int `json:"callbacks"`
	CallbackFuncs    map[string]int `json:"callbackFuncs"` // the functions so entered

	FileCallbacks int `json:"fileCallbacks"`
}

// Summarize reads calls (files under root) as a Summary. A function's
// package is its file's directory.
func Summarize(calls []hook.Call, root string) Summary {
	s := Summary{Entries: len(calls)}
	pkgs, files := make([]string, len(calls)), make([]string, len(calls))
	for i, c := range calls {
		files[i] = relFile(root, c.File)
		pkgs[i] = path.Dir(files[i])
	}
	s.PackageVisits, s.Packages, s.PackageReturns = visits(pkgs)
	var fileVisits []string
	fileVisits, s.Files, s.FileReturns = visits(files)
	s.FileVisits = len(fileVisits)
	s.Callbacks, s.CallbackFuncs = map[string]int{}, map[string]int{}
	for i, c := range calls {
		callers := moduleFiles(root, c.Callers)
		if from, ok := callsBack(pkgs[i], dirsOf(callers)); ok {
			s.PackageCallbacks++
			s.Callbacks[from+" → "+pkgs[i]]++
			s.CallbackFuncs[strings.TrimPrefix(c.Func, module)]++
		}
		if _, ok := callsBack(files[i], callers); ok {
			s.FileCallbacks++
		}
	}
	return s
}

// callsBack reports whether into is entered from another place (the
// nearest caller, returned) while a caller further out is into itself:
// control left into and comes back into it before returning.
func callsBack(into string, callers []string) (string, bool) {
	if len(callers) == 0 || callers[0] == into {
		return "", false
	}
	for _, c := range callers[1:] {
		if c == into {
			return callers[0], true
		}
	}
	return "", false
}

// moduleFiles is the files of callers that lie in the module under root,
// relative to it, the nearest first.
func moduleFiles(root string, callers []string) []string {
	var in []string
	for _, f := range callers {
		if rel := relFile(root, f); rel != f || strings.HasPrefix(f, module) {
			in = append(in, rel)
		}
	}
	return in
}

// dirsOf is the directory (the package) of each file.
func dirsOf(files []string) []string {
	dirs := make([]string, len(files))
	for i, f := range files {
		dirs[i] = path.Dir(f)
	}
	return dirs
}

// visits collapses each run of one name in seq into one visit, and
// returns the visits, the names in the order of their first visit and the
// number of visits to a name visited before.
func visits(seq []string) (runs, first []string, returns int) {
	seen := map[string]bool{}
	for i, name := range seq {
		if i > 0 && seq[i-1] == name {
			continue
		}
		runs = append(runs, name)
		if seen[name] {
			returns++
			continue
		}
		seen[name] = true
		first = append(first, name)
	}
	return runs, first, returns
}

// relFile is file relative to root, with forward slashes.
func relFile(root, file string) string {
	if rel, ok := strings.CutPrefix(file, module); ok { // built with -trimpath
		return rel
	}
	if rel, err := filepath.Rel(root, file); err == nil && !strings.HasPrefix(rel, "..") {
		return filepath.ToSlash(rel)
	}
	return file
}
