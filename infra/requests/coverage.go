package requests

import (
	"fmt"
	"regexp"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/ext/catalog/library"
)

// ServerCoverage is what the requests of one server's items cover.
type ServerCoverage struct {
	Server string `json:"server"`
	// Identity is the library server whose requests its items were given
	// (library.Attach), "" if none.
	Identity     string `json:"identity,omitempty"`
	Items        int    `json:"items"`
	WithRequests int    `json:"itemsWithRequests"`
	// FromLibrary counts the items of WithRequests whose requests the
	// library gave (catalog.RequestsFromLibrary); the others' are their own.
	FromLibrary int `json:"itemsWithLibraryRequests"`
	Requests    int `json:"requests"`
	// Sources say, for every item (canonical name), where its requests
	// come from: "own", "library" or "none".
	Sources map[string]string `json:"sources"`
	// Missing are the items without requests (canonical names).
	Missing []string `json:"missing,omitempty"`
	// Repeating are the requests that repeat four words or more of their
	// item's description, "item: request": written from the words people
	// use, a request says what the description does not.
	Repeating []string `json:"repeating,omitempty"`
	// Shared are the requests that another item has too, "item: request":
	// a request is about one item's difference from its siblings.
	Shared []string `json:"shared,omitempty"`
}

// Coverage reports, server by server in catalog order, what the requests
// of cat's items cover.
func Coverage(cat *catalog.Catalog) []ServerCoverage {
	owners := map[string][]string{} // normalised request → items
	for _, it := range cat.Items {
		for _, r := range it.Requests {
			owners[normalise(r)] = append(owners[normalise(r)], it.Name)
		}
	}
	byServer := map[string]*ServerCoverage{}
	var out []*ServerCoverage
	for _, s := range cat.Servers {
		c := &ServerCoverage{Server: s.Name}
		byServer[s.Name], out = c, append(out, c)
	}
	for _, it := range cat.Items {
		c := byServer[it.Server]
		c.Items++
		if c.Sources == nil {
			c.Sources = map[string]string{}
		}
		c.Sources[it.Name] = SourceOf(&it)
		if len(it.Requests) == 0 {
			c.Missing = append(c.Missing, it.Name)
			continue
		}
		if it.RequestsFrom == catalog.RequestsFromLibrary {
			c.FromLibrary++
		}
		c.WithRequests++
		c.Requests += len(it.Requests)
		grams := wordGrams(it.Description, 4)
		for _, r := range it.Requests {
			if repeats(r, grams, 4) {
				c.Repeating = append(c.Repeating, it.Name+": "+r)
			}
			if len(owners[normalise(r)]) > 1 {
				c.Shared = append(c.Shared, it.Name+": "+r)
			}
		}
	}
	result := make([]ServerCoverage, len(out))
	for i, c := range out {
		result[i] = *c
	}
	return result
}

// SourceOf says where it's requests come from: "own" (the catalog's),
// "library" (attached from the library of public servers' requests),
// "draft" (a model's draft, applied at build: DraftCached) or "none".
func SourceOf(it *catalog.Item) string {
	switch {
	case len(it.Requests) == 0:
		return "none"
	case it.RequestsFrom == catalog.RequestsFromLibrary:
		return "library"
	case it.RequestsFrom == RequestsFromDraft:
		return "draft"
	}
	return "own"
}

// CoverageLine is the build's coverage line: cov's (library.Coverage's
// String) when c applied no drafts; otherwise with the items c gave
// drafted requests counted apart, no longer among those with none, and
// the servers without requests those with none of any kind.
func CoverageLine(cov *library.Coverage, c *Cached) string {
	if c == nil || c.Applied == 0 {
		return cov.String()
	}
	rest := *cov
	rest.None -= c.Applied
	rest.Servers = nil
	for _, s := range cov.Servers {
		if d := c.ByServer[s.Server]; d > 0 {
			s.None -= d
			s.Own += d // not own, but not without: left out of the servers without
		}
		rest.Servers = append(rest.Servers, s)
	}
	line, drafted := rest.String(), fmt.Sprintf(", %d drafted (unreviewed, in %s)", c.Applied, c.Dir)
	if i := strings.Index(line, fmt.Sprintf(", %d none", rest.None)); i >= 0 {
		return line[:i] + drafted + line[i:]
	}
	return line + drafted
}

var nonWord = regexp.MustCompile(`[^\p{L}\p{N}]+`)

// words are the lower-case words of s.
func words(s string) []string {
	return strings.Fields(nonWord.ReplaceAllString(strings.ToLower(s), " "))
}

func normalise(r string) string { return strings.Join(words(r), " ") }

// wordGrams returns the runs of n words of s.
func wordGrams(s string, n int) map[string]bool {
	w := words(s)
	out := map[string]bool{}
	for i := 0; i+n <= len(w); i++ {
		out[strings.Join(w[i:i+n], " ")] = true
	}
	return out
}

// repeats reports whether r holds a run of n words of grams.
func repeats(r string, grams map[string]bool, n int) bool {
	w := words(r)
	for i := 0; i+n <= len(w); i++ {
		if grams[strings.Join(w[i:i+n], " ")] {
			return true
		}
	}
	return false
}
