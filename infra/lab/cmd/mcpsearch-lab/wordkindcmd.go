package main

import (
	"fmt"
	"io"
	"slices"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog/library"
	librarydata "github.com/mcpsearch/mcpsearch/ext/catalog/library/data"
	"github.com/mcpsearch/mcpsearch/infra/lab/train"
)

// runWordKind trains the word-kind model (index/internal/wordkind) on the
// library of public servers and writes it: the words of tool, prompt and
// server names against the words written in requests that no name or
// description of the library uses. It reads the library only: no query.
func runWordKind(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("wordkind", stdout, stderr)
	out := fs.String("out", train.WordKindModelFile, "model `FILE` to write")
	minServers := fs.Int("min-servers", 2, "a word of tool and prompt names is a tool word when the names of at least N servers use it (a server's own name's words always are)")
	minRequests := fs.Int("min-requests", 2, "a word of requests is said in passing when at least N requests use it and no name or description does")
	if err := fs.Parse(args); err != nil {
		return err
	}
	if *minServers < 1 || *minRequests < 1 {
		return fmt.Errorf("--min-servers %d, --min-requests %d: each must be at least 1", *minServers, *minRequests)
	}
	lib, err := librarydata.Library()
	if err != nil {
		return err
	}
	tool, said := wordKindWords(lib.Files(), *minServers, *minRequests)
	m, nTool, nSaid, err := train.WordKind(tool, said)
	if err != nil {
		return err
	}
	if err := writeFileAtomically(*out, m.Encode()); err != nil {
		return err
	}
	fmt.Fprintf(stdout, "wrote %s: trained on %d tool words and %d words said in passing that the word vectors hold (of %d and %d), from %d servers (library %s)\n",
		*out, nTool, nSaid, len(tool), len(said), len(lib.Files()), lib.Version())
	return nil
}

// wordKindWords returns, each sorted, the tool words of files (the words
// of their server names, and those of the tool and prompt names of at
// least minServers servers) and the words they say in passing (those of
// at least minRequests requests that no item's name or description, nor
// a server's name, uses); words of three letters or more.
func wordKindWords(files []*library.File, minServers, minRequests int) (tool, said []string) {
	servers, named, described, requested := map[string]int{}, map[string]bool{}, map[string]bool{}, map[string]int{}
	for _, f := range files {
		seen := map[string]bool{}
		for _, w := range serverNameWords(f) {
			named[w] = true
			if !seen[w] {
				seen[w] = true
				servers[w] += minServers // a product is a tool word
			}
		}
		for _, it := range f.Items {
			for _, w := range nameWords(it.Name) {
				named[w] = true
				if (it.Kind == ext.KindTool || it.Kind == ext.KindPrompt) && !seen[w] {
					seen[w] = true
					servers[w]++
				}
			}
			for _, w := range plainWords(it.Description) {
				described[w] = true
			}
			for _, r := range it.Requests {
				for _, w := range distinct(plainWords(r)) {
					requested[w]++
				}
			}
		}
	}
	for w, n := range servers {
		if n >= minServers && len(w) >= 3 {
			tool = append(tool, w)
		}
	}
	for w, n := range requested {
		if n >= minRequests && len(w) >= 3 && !named[w] && !described[w] {
			said = append(said, w)
		}
	}
	slices.Sort(tool)
	slices.Sort(said)
	return tool, said
}

// plainWords are the lower-case runs of ASCII letters of s.
func plainWords(s string) []string {
	return strings.FieldsFunc(strings.ToLower(s), func(r rune) bool { return r < 'a' || r > 'z' })
}

func distinct(words []string) []string {
	slices.Sort(words)
	return slices.Compact(words)
}
