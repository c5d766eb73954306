package main

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"strings"
	"unicode"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog/library"
	librarydata "github.com/mcpsearch/mcpsearch/ext/catalog/library/data"
	"github.com/mcpsearch/mcpsearch/index"
)

// toolVocabFile is the table runToolVocab writes.
const toolVocabFile = textData + "toolvocab.txt"

// runToolVocab distils the names of the library's public servers into the
// table of what they deal with (index/internal/text, toolvocab.txt): the
// products they are named for — the words of a server's package name
// (without its scope, a publisher's handle) and of the name it gives
// itself that the tool and prompt names of at most --foreign-use servers
// not so named use — and the objects and actions their tools are named
// for, the words the tool and prompt names of at least --min-servers
// servers use. It reads names only: no description, no request, no query.
func runToolVocab(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("toolvocab", stdout, stderr)
	out := fs.String("out", toolVocabFile, "table to write")
	foreignUse := fs.Int("foreign-use", 1, "a word of a server's name is a product when the tool and prompt names of at most N servers not named by it use it")
	minServers := fs.Int("min-servers", 2, "a word of tool and prompt names is an object or action when the names of at least N servers use it")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *foreignUse < 0 {
		return fmt.Errorf("--foreign-use: %d: must not be negative", *foreignUse)
	}
	if *minServers < 1 {
		return fmt.Errorf("--min-servers: %d: must be at least 1", *minServers)
	}
	lib, err := librarydata.Library()
	if err != nil {
		return err
	}
	products, objects := toolVocabWords(lib.Files(), *foreignUse, *minServers)
	if err := writeToolVocab(*out, products, objects, len(lib.Files()), *foreignUse, *minServers, lib.Version()); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: %d products, %d objects and actions, from the names of %d servers (library %s)\n", *out, len(products), len(objects), len(lib.Files()), lib.Version())
	return nil
}

// toolVocabWords returns, each sorted, the products of the files' server
// names (words the tool and prompt names of at most foreignUse servers
// not named by them use: trello, not chart) and the objects and actions
// of their tool and prompt names (words the names of at least minServers
// servers use), a product not among them.
func toolVocabWords(files []*library.File, foreignUse, minServers int) (products, objects []string) {
	use, foreign, named := map[string]int{}, map[string]int{}, map[string]bool{}
	for _, f := range files {
		own := map[string]bool{}
		for _, w := range serverNameWords(f) {
			own[w], named[w] = true, true
		}
		seen := map[string]bool{}
		for _, it := range f.Items {
			if it.Kind != ext.KindTool && it.Kind != ext.KindPrompt {
				continue
			}
			for _, w := range nameWords(it.Name) {
				if seen[w] {
					continue
				}
				seen[w] = true
				use[w]++
				if !own[w] {
					foreign[w]++
				}
			}
		}
	}
	isProduct := map[string]bool{}
	for w := range named {
		if foreign[w] <= foreignUse {
			products = append(products, w)
			isProduct[w] = true
		}
	}
	for w, n := range use {
		if n >= minServers && !isProduct[w] {
			objects = append(objects, w)
		}
	}
	return asTerms(products), asTerms(objects)
}

// asTerms returns the distinct terms the index's analyzer makes of words
// (index.Terms), sorted: the table is read without analysing it.
func asTerms(words []string) []string {
	var out []string
	for _, w := range words {
		out = append(out, index.Terms(w)...)
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// serverNameWords are the words of a library server's package name,
// without its scope (a publisher's handle, often a person's), and of the
// name it gives itself.
func serverNameWords(f *library.File) []string {
	pkg, _, _ := strings.Cut(f.Identity, " (")
	if i := strings.LastIndex(pkg, "/"); i >= 0 {
		pkg = pkg[i+1:]
	}
	return append(nameWords(pkg), nameWords(f.InfoName)...)
}

// nameWords are the lower-case words of a name (index.SplitName), each of
// two characters or more, a letter first, ASCII letters and digits only.
func nameWords(name string) []string {
	var out []string
	for _, part := range strings.FieldsFunc(name, func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r) && r != '_'
	}) {
		for _, w := range index.SplitName(part) {
			if w = strings.ToLower(w); isNameWord(w) {
				out = append(out, w)
			}
		}
	}
	return out
}

func isNameWord(w string) bool {
	if len(w) < 2 || w[0] < 'a' || w[0] > 'z' {
		return false
	}
	return !strings.ContainsFunc(w, func(r rune) bool { return !(r >= 'a' && r <= 'z' || r >= '0' && r <= '9') })
}

// writeToolVocab writes the table, atomically: a header saying how it was
// made, then each part under its source line, one word a line.
func writeToolVocab(path string, products, objects []string, servers, foreignUse, minServers int, libraryVersion string) error {
	w := new(bytes.Buffer)
	fmt.Fprintf(w, "# What public MCP servers' names say they deal with (index/internal/text/toolvocab.go),\n")
	fmt.Fprintf(w, "# from the names of the library's %d servers (library %s) and of their tools and\n", servers, libraryVersion)
	fmt.Fprintf(w, "# prompts, as the index's analyzer reads them (stemmed); no description, request\n")
	fmt.Fprintf(w, "# or query is read. Generated by\n")
	fmt.Fprintf(w, "#   go run ./infra/lab/cmd/mcpsearch-lab toolvocab --foreign-use %d --min-servers %d\n", foreignUse, minServers)
	fmt.Fprintf(w, "# Do not edit.\n")
	fmt.Fprintf(w, "source: products: the words of servers' names that the tool and prompt names of at most %d servers not so named use\n", foreignUse)
	for _, word := range products {
		fmt.Fprintln(w, word)
	}
	fmt.Fprintf(w, "source: objects and actions: the words the tool and prompt names of at least %d servers use\n", minServers)
	for _, word := range objects {
		fmt.Fprintln(w, word)
	}
	return writeFileAtomically(path, w.Bytes())
}
