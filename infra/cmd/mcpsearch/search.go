package main

import (
	"cmp"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/ext/catalog/library"
	"github.com/mcpsearch/mcpsearch/index"
	"github.com/mcpsearch/mcpsearch/infra/artifact"
	"github.com/mcpsearch/mcpsearch/infra/cli"
)

func runSearch(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("search", stdout, stderr)
	fs.Operands = "QUERY...   (the words to search for; flags may stand among them, and after -- every word is a word, even one that starts with -)"
	dir := fs.String("index", "", "bundle directory (default: the bundle of $MCPSEARCH_CATALOG or of the default catalog functions/search/catalog, built once into the cache go run ./functions/search uses)")
	kind := fs.String("kind", string(ext.KindTool), "tool, prompt, resource or resourceTemplate")
	limit := fs.Int("limit", ext.DefaultLimit, "results to show (1-50)")
	groups := fs.String("groups", "", "search as a caller of these comma-separated groups (default: see every item)")
	scopes := fs.String("scopes", "", "search as a caller holding these comma-separated scopes")
	off := fs.String("off", "", "retrieval rules to switch off, comma-separated, as the function's MCPSEARCH_RULES_OFF does (mcpsearch-lab eval --ablate lists them)")
	words, err := fs.ParseOperands(args)
	if err != nil {
		return err
	}
	text := strings.Join(words, " ")
	if text == "" {
		return fmt.Errorf("%w: give the query (QUERY...)", cli.ErrUsage)
	}
	if !ext.Kind(*kind).Valid() || *limit < 1 || *limit > ext.MaxLimit {
		return fmt.Errorf("%w: --kind must be one of %v and --limit between 1 and %d", cli.ErrUsage, ext.Kinds, ext.MaxLimit)
	}
	if *dir == "" {
		if *dir, err = cachedCatalogBundle(os.LookupEnv, stderr); err != nil {
			return err
		}
	}
	x, err := index.Open(*dir)
	if err != nil {
		return err
	}
	defer x.Close()
	if *off != "" {
		if err := x.SetRulesOff(cli.SplitList(*off)...); err != nil {
			return fmt.Errorf("%w: --off: %w", cli.ErrUsage, err)
		}
	}
	access := ext.Access{All: *groups == "" && *scopes == "", Groups: cli.SplitList(*groups), Scopes: cli.SplitList(*scopes)}
	page, err := x.Search(ext.WithAccess(context.Background(), access), ext.Query{Kind: ext.Kind(*kind), Text: text, Limit: *limit})
	if err != nil {
		return err
	}
	if len(page.Items) == 0 {
		_, err = fmt.Fprintf(stdout, "no %ss: %s\n", *kind, cmp.Or(page.Hint, "nothing fits the query"))
		return err
	}
	return printHits(stdout, page.Items)
}

// cachedCatalogBundle returns the bundle search reads without --index:
// as go run ./functions/search does, that of the catalog directory
// MCPSEARCH_CATALOG names, else of the default catalog
// (functions/search/catalog of the module this runs in), in the cache
// directory MCPSEARCH_CACHE_DIR names (else the user cache directory's
// mcpsearch), under the server's name for it (index- and 16 hex digits of
// its index version and the library's, library.CacheKey; the library
// attached unless MCPSEARCH_LIBRARY=off), so that each reuses the other's
// build. It builds
// the bundle once, saying so on progress.
func cachedCatalogBundle(lookup func(string) (string, bool), progress io.Writer) (string, error) {
	catalogDir, from := lookupNonEmpty(lookup, "MCPSEARCH_CATALOG"), "MCPSEARCH_CATALOG"
	if catalogDir == "" {
		module, err := artifact.FindModule(".", sourceDir)
		if err != nil {
			return "", fmt.Errorf("%w: give --index, or MCPSEARCH_CATALOG (%w)", cli.ErrUsage, err)
		}
		catalogDir, from = filepath.Join(module, "functions", "search", "catalog"), "the default catalog"
	}
	cat, err := catalog.LoadDir(catalogDir, nil)
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", from, catalogDir, err)
	}
	libValue := cmp.Or(lookupNonEmpty(lookup, "MCPSEARCH_LIBRARY"), "on")
	cov, err := attachLibrary(cat, libValue)
	if err != nil {
		return "", fmt.Errorf("MCPSEARCH_LIBRARY=%s: %w", libValue, err)
	}
	cacheDir := lookupNonEmpty(lookup, "MCPSEARCH_CACHE_DIR")
	if cacheDir == "" {
		if cacheDir, err = os.UserCacheDir(); err != nil {
			cacheDir = os.TempDir()
		}
		cacheDir = filepath.Join(cacheDir, "mcpsearch")
	}
	dir := filepath.Join(cacheDir, "index-"+library.CacheKey(index.VersionOf(cat), cov.Library))
	if m, err := index.Verify(dir); err == nil && m.Library == cov.Library {
		return dir, nil
	}
	fmt.Fprintf(progress, "mcpsearch search: building the index of %s (%s) into %s, once...\n", from, catalogDir, dir)
	start := time.Now()
	if _, err := index.Build(cat, dir, &index.BuildOptions{Library: cov.Library}); err != nil {
		return "", err
	}
	fmt.Fprintf(progress, "mcpsearch search: index built in %.1fs\n", time.Since(start).Seconds())
	return dir, nil
}

func lookupNonEmpty(lookup func(string) (string, bool), name string) string {
	v, _ := lookup(name)
	return v
}

func printHits(w io.Writer, hits []ext.Hit) error {
	tw := tabwriter.NewWriter(w, 0, 4, 2, ' ', 0)
	fmt.Fprintln(tw, "SCORE\tNAME\tDESCRIPTION")
	for _, h := range hits {
		var obj struct{ Name, URI, Description string }
		if err := json.Unmarshal(h.Object, &obj); err != nil {
			return err
		}
		fmt.Fprintf(tw, "%.3f\t%s\t%s\n", h.Score, cmp.Or(obj.Name, obj.URI), oneLine(obj.Description, 80))
	}
	return tw.Flush()
}

func oneLine(s string, n int) string {
	s = strings.Join(strings.Fields(s), " ")
	if r := []rune(s); len(r) > n {
		return string(r[:n-1]) + "…"
	}
	return s
}
