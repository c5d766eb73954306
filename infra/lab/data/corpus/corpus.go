// Package corpus reads and checks the training corpus (catalog/ and
// SOURCES.md beside this file): real MCP servers beyond the default
// catalog, crawled from npm, whose items carry requests written for them
// the way the default catalog's are (_meta["io.github.mcpsearch/requests"]).
// It is data for what is learned at development time, never an evaluation
// set and never served.
//
// [Load] reads the catalog with the build's own checks (catalog.LoadDir)
// and the sources table; [Check] refuses a corpus whose files and sources
// rows differ, whose licence is not a permissive open-source one, whose
// package is not pinned to a version, where fewer than [WrittenItems] of a
// server's items (all of a smaller server) carry written requests, or an
// item carries fewer than [MinRequests] but some.
package corpus

import (
	"bufio"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// WrittenItems is how many items of a server carry written requests at
// least (the first of the server's file, as the writers took them): breadth
// across servers mattered more than the long tail of a very large one.
const WrittenItems = 60

// MinRequests is the fewest requests a written item carries.
const MinRequests = 6

// Licences are the licences a corpus server may carry, folded to lower
// case.
var Licences = []string{"mit", "apache-2.0", "bsd-2-clause", "bsd-3-clause", "isc", "mpl-2.0"}

// Source is one row of SOURCES.md: a catalog file and where it came from.
type Source struct {
	File, Package, Licence, Repository string
}

// Corpus is the loaded corpus.
type Corpus struct {
	Catalog *catalog.Catalog
	Sources []Source
}

// Load reads the corpus under dir (catalog/ and SOURCES.md).
func Load(dir string) (*Corpus, error) {
	cat, err := catalog.LoadDir(filepath.Join(dir, "catalog"), nil)
	if err != nil {
		return nil, err
	}
	sources, err := readSources(filepath.Join(dir, "SOURCES.md"))
	if err != nil {
		return nil, err
	}
	return &Corpus{Catalog: cat, Sources: sources}, nil
}

// readSources reads the table rows of SOURCES.md naming a .json file.
func readSources(path string) ([]Source, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var out []Source
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		cells := strings.Split(sc.Text(), "|")
		if len(cells) < 6 || !strings.HasSuffix(strings.TrimSpace(cells[1]), ".json") {
			continue
		}
		if len(cells) != 10 {
			return nil, fmt.Errorf("%s:%d: want 8 cells (file, package@version, licence, source, tools, prompts, resources, templates), got %d", path, n, len(cells)-2)
		}
		out = append(out, Source{File: strings.TrimSpace(cells[1]), Package: strings.TrimSpace(cells[2]),
			Licence: strings.TrimSpace(cells[3]), Repository: strings.TrimSpace(cells[4])})
	}
	return out, sc.Err()
}

// pinned is package@version with an exact version.
var pinned = regexp.MustCompile(`^(@[a-z0-9._~-]+/)?[a-z0-9._~-]+@\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$`)

// Check returns the corpus's problems, each naming its file.
func (c *Corpus) Check() []string {
	var problems []string
	servers := c.servers()
	listed := map[string]bool{}
	for _, s := range c.Sources {
		name := strings.TrimSuffix(s.File, ".json")
		if listed[name] {
			problems = append(problems, s.File+": listed twice in SOURCES.md")
		}
		listed[name] = true
		if _, ok := servers[name]; !ok {
			problems = append(problems, s.File+": in SOURCES.md, not in catalog/")
		}
		if !slices.Contains(Licences, strings.ToLower(s.Licence)) {
			problems = append(problems, fmt.Sprintf("%s: licence %q is not one of %v", s.File, s.Licence, Licences))
		}
		if !pinned.MatchString(s.Package) {
			problems = append(problems, fmt.Sprintf("%s: package %q is not package@version", s.File, s.Package))
		}
	}
	for _, name := range slices.Sorted(maps.Keys(servers)) {
		if !listed[name] {
			problems = append(problems, name+".json: not in SOURCES.md")
		}
		problems = append(problems, checkWritten(name, servers[name])...)
	}
	return problems
}

// servers groups the catalog's items by server, in catalog order.
func (c *Corpus) servers() map[string][]catalog.Item {
	out := map[string][]catalog.Item{}
	for _, it := range c.Catalog.Items {
		out[it.Server] = append(out[it.Server], it)
	}
	return out
}

// checkWritten checks that min(WrittenItems, all) items of a server carry
// written requests, and that none carries fewer than MinRequests but some.
func checkWritten(server string, items []catalog.Item) []string {
	var problems []string
	written := 0
	for _, it := range items {
		n := len(it.Requests)
		if n > 0 {
			written++
		}
		if n > 0 && n < MinRequests {
			problems = append(problems, fmt.Sprintf("%s.json: %s %q has %d written requests, want at least %d", server, it.Kind, it.Label, n, MinRequests))
		}
	}
	if want := min(WrittenItems, len(items)); written < want {
		problems = append(problems, fmt.Sprintf("%s.json: %d of its %d items carry written requests, want at least %d", server, written, len(items), want))
	}
	return problems
}
