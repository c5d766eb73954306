package e2e

import (
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// rootMapHeading is the section of README.md that maps the rooms.
const rootMapHeading = "## Map of the rooms"

// TestEveryPackageIsOnAMap: every package of the module is named, by its
// path from the module root in backticks, in the first column of the
// table under README.md's "Map of the rooms" or of a package table (a
// table whose first header cell is "package") in the README.md of its
// own directory or of a directory above it (index/README.md names
// `index/internal/bm25`). A package added without a line on a map fails.
func TestEveryPackageIsOnAMap(t *testing.T) {
	t.Parallel()
	rootMap := readmeMap(t, "", rootMapHeading)
	if len(rootMap) == 0 {
		t.Fatalf("README.md: no table under %q names a package", rootMapHeading)
	}
	maps := map[string]map[string]bool{"": rootMap}
	for _, p := range listPackages(t) {
		rel, ok := strings.CutPrefix(p.ImportPath, module+"/")
		if !ok {
			continue // the module's root package, if it ever has one
		}
		if !namedOnAMap(t, maps, rel) {
			t.Errorf("package %s is on no map: name it (`%s`) in README.md's %q table or in the package table of %s",
				rel, rel, strings.TrimPrefix(rootMapHeading, "## "), roomReadmes(rel))
		}
	}
}

// namedOnAMap reports whether rel is named on the root map or on the
// package table of a README in its directory or one above it; maps caches
// each directory's names.
func namedOnAMap(t *testing.T, maps map[string]map[string]bool, rel string) bool {
	t.Helper()
	if maps[""][rel] {
		return true
	}
	for dir := rel; dir != "." && dir != ""; dir = path.Dir(dir) {
		names, ok := maps[dir]
		if !ok {
			names = readmeMap(t, dir, "")
			maps[dir] = names
		}
		if names[rel] {
			return true
		}
	}
	return false
}

// roomReadmes lists, for a message, the READMEs above rel that exist.
func roomReadmes(rel string) string {
	var found []string
	for dir := rel; dir != "." && dir != ""; dir = path.Dir(dir) {
		if _, err := os.Stat(filepath.Join(repoRoot, dir, "README.md")); err == nil {
			found = append(found, dir+"/README.md")
		}
	}
	if len(found) == 0 {
		return "a README.md above it (there is none yet)"
	}
	return strings.Join(found, " or ")
}

// readmeMap reads dir's README.md (none is an empty map) and returns the
// paths in backticks in the first column of its map tables: with a
// heading, the first table after that heading; without, every table whose
// first header cell is "package".
func readmeMap(t *testing.T, dir, heading string) map[string]bool {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(repoRoot, dir, "README.md"))
	if os.IsNotExist(err) {
		return nil
	} else if err != nil {
		t.Fatal(err)
	}
	names := map[string]bool{}
	for _, table := range markdownTables(string(data), heading) {
		for _, row := range table {
			for _, m := range backticked.FindAllStringSubmatch(firstCell(row), -1) {
				names[m[1]] = true
			}
		}
	}
	return names
}

var backticked = regexp.MustCompile("`([^`]+)`")

// markdownTables returns the body rows of text's tables outside code
// fences: with a heading, only the first table after the line that is
// that heading; without, the tables whose first header cell is "package".
func markdownTables(text, heading string) [][]string {
	var tables [][]string
	var rows []string
	inFence, afterHeading, header := false, heading == "", ""
	flush := func() {
		if len(rows) > 0 && (heading != "" || strings.TrimSpace(firstCell(header)) == "package") {
			tables = append(tables, rows)
		}
		rows, header = nil, ""
	}
	for _, line := range strings.Split(text, "\n") {
		switch {
		case strings.HasPrefix(line, "```"):
			inFence = !inFence
		case inFence:
		case heading != "" && strings.TrimSpace(line) == heading:
			afterHeading = true
		case !afterHeading:
		case strings.HasPrefix(line, "|") && header == "":
			header = line
		case strings.HasPrefix(line, "|---") || strings.HasPrefix(line, "|:-"):
		case strings.HasPrefix(line, "|"):
			rows = append(rows, line)
		default:
			flush()
			if heading != "" && len(tables) > 0 {
				return tables
			}
		}
	}
	flush()
	return tables
}

// firstCell is a table row's first cell.
func firstCell(row string) string {
	cells := strings.SplitN(strings.TrimPrefix(row, "|"), "|", 2)
	return cells[0]
}
