package searchclient_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/searchclient"
)

// picked prints a selection's tools as canonical names, a pinned one
// marked with a star.
func picked(sel *searchclient.Selection) string {
	var out []string
	for _, t := range sel.Tools {
		name := t.Canonical
		if t.Pinned {
			name = "*" + name
		}
		out = append(out, name)
	}
	return strings.Join(out, " ")
}

// twoServers starts a server with the extension (select: included) and
// one without, and connects to both.
func twoServers(t *testing.T) (clients []*searchclient.Client, browser, git *traffic) {
	t.Helper()
	browserURL, browser, stop1 := serve(selectingHandler("browser", 1, browserTools...))
	t.Cleanup(stop1)
	gitURL, git, stop2 := serve(plainHandler("git", gitTools...))
	t.Cleanup(stop2)
	return []*searchclient.Client{connect(t, browserURL, nil), connect(t, gitURL, nil)}, browser, git
}

func mustSelect(t *testing.T, clients []*searchclient.Client, message string, b searchclient.Budget, pins ...string) *searchclient.Selection {
	t.Helper()
	sel, err := searchclient.Select(context.Background(), clients, message, b, &searchclient.SelectOptions{Pinned: pins})
	if err != nil {
		t.Fatal(err)
	}
	if len(sel.Failures) > 0 {
		t.Fatalf("failures: %v", sel.Failures)
	}
	return sel
}

// TestSelectBudget: over every budget of tools and tokens, with and
// without pins, the selection stays within it, counts each definition as
// the budget's counter does, holds no tool twice, and is as full as the
// budget allows.
func TestSelectBudget(t *testing.T) {
	clients, _, _ := twoServers(t)
	const message = "take a screenshot of the page and open a merge request"
	for _, pins := range [][]string{nil, {"git__list_branches", "browser__navigate"}} {
		all := mustSelect(t, clients, message, searchclient.Budget{Tools: ext.MaxLimit}, pins...)
		if len(all.Tools) < 5 {
			t.Fatalf("pins %v: an unbounded selection holds %q; want 5 tools or more to budget", pins, picked(all))
		}
		for tools := range 8 {
			for _, tokens := range []int{0, 20, 40, 60, 90, 130, 200, 400} {
				b := searchclient.Budget{Tools: tools, Tokens: tokens}
				if b.Tools == 0 && b.Tokens == 0 {
					continue
				}
				t.Run(fmt.Sprintf("pins %d tools %d tokens %d", len(pins), tools, tokens), func(t *testing.T) {
					checkWithin(t, mustSelect(t, clients, message, b, pins...), b, all)
				})
			}
		}
	}
}

func checkWithin(t *testing.T, sel *searchclient.Selection, b searchclient.Budget, all *searchclient.Selection) {
	t.Helper()
	if b.Tools > 0 && len(sel.Tools) > b.Tools {
		t.Errorf("got %d tools, over the budget of %d", len(sel.Tools), b.Tools)
	}
	if b.Tokens > 0 && sel.Tokens > b.Tokens {
		t.Errorf("got %d tokens, over the budget of %d", sel.Tokens, b.Tokens)
	}
	sum, seen := 0, map[string]bool{}
	for _, tl := range sel.Tools {
		sum += tl.Tokens
		if want := searchclient.EstimateTokens(tl.Definition); tl.Tokens != want {
			t.Errorf("%s: got %d tokens, want %d (bytes/4)", tl.Canonical, tl.Tokens, want)
		}
		if seen[tl.Canonical] {
			t.Errorf("%s selected twice", tl.Canonical)
		}
		seen[tl.Canonical] = true
		if strings.Contains(string(tl.Definition), ext.MetaScore) {
			t.Errorf("%s: the definition keeps the search score: %s", tl.Canonical, tl.Definition)
		}
	}
	if sum != sel.Tokens {
		t.Errorf("Tokens %d, want the sum of the tools' %d", sel.Tokens, sum)
	}
	// As full as the budget allows: no tool of the unbounded selection that
	// was left out would still have fit.
	for _, tl := range all.Tools {
		fits := (b.Tools == 0 || len(sel.Tools) < b.Tools) && (b.Tokens == 0 || sel.Tokens+tl.Tokens <= b.Tokens)
		if !seen[tl.Canonical] && fits {
			t.Errorf("got %q; %s (%d tokens) was left out but fits", picked(sel), tl.Canonical, tl.Tokens)
		}
	}
}

// TestSelectCounter: a caller's counter replaces the estimate.
func TestSelectCounter(t *testing.T) {
	clients, _, _ := twoServers(t)
	ten := func(json.RawMessage) int { return 10 }
	sel := mustSelect(t, clients, "screenshot of a diff", searchclient.Budget{Tokens: 25, Count: ten})
	if len(sel.Tools) != 2 || sel.Tokens != 20 || sel.Tools[0].Tokens != 10 {
		t.Errorf("got %q, %d tokens; want 2 tools of 10 tokens each", picked(sel), sel.Tokens)
	}
}

// TestSelectSkipsOversize: a tool whose definition alone costs more than
// the tokens left is skipped whole, reported, and smaller tools after it
// are taken.
func TestSelectSkipsOversize(t *testing.T) {
	huge := tool{"screenshot_everything", "Screenshot " + strings.Repeat("every screenshot of every page ", 40)}
	url, _, stop := serve(selectingHandler("browser", 1, append([]tool{huge}, browserTools...)...))
	defer stop()
	clients := []*searchclient.Client{connect(t, url, nil)}
	sel := mustSelect(t, clients, "screenshot", searchclient.Budget{Tools: 3})
	if sel.Tools[0].Canonical != "browser__screenshot_everything" || sel.Tools[0].Tokens < 300 {
		t.Fatalf("without a token budget: got %q, want browser__screenshot_everything (300 tokens or more) first", picked(sel))
	}
	sel = mustSelect(t, clients, "screenshot", searchclient.Budget{Tools: 3, Tokens: 200})
	if got := picked(sel); got != "browser__take_screenshot" {
		t.Errorf("got %q, want browser__take_screenshot", got)
	}
	if fmt.Sprint(sel.Skipped) != "[browser__screenshot_everything]" {
		t.Errorf("skipped: got %v, want [browser__screenshot_everything]", sel.Skipped)
	}
	for _, tl := range sel.Tools {
		if !json.Valid(tl.Definition) {
			t.Errorf("%s: a definition that is not whole JSON: %s", tl.Canonical, tl.Definition)
		}
	}
}

// TestSelectPinning fetches pinned tools from every kind of server: one
// that selects by name, one that reads select: as words, one that
// advertises the extension without serving it, one without the extension.
// Pinned tools come first, in the order pinned, count against the budget
// and are not selected twice.
func TestSelectPinning(t *testing.T) {
	for _, test := range []struct {
		name    string
		handler func() http.Handler
		pins    []string
		// whether tools/list is walked, and whether a select: search is sent
		list, selectSearch bool
	}{
		{"select: served", func() http.Handler { return selectingHandler("browser", 1, browserTools...) },
			[]string{"browser__pdf", "browser__navigate", "browser__nothing"}, false, true},
		{"select: read as words", func() http.Handler { return withoutSelect(extensionHandler("browser", 1, browserTools...), false) },
			[]string{"browser__pdf", "browser__navigate", "browser__nothing"}, true, true},
		{"select: read as words that find nothing", func() http.Handler { return withoutSelect(extensionHandler("browser", 1, browserTools...), true) },
			[]string{"browser__pdf", "browser__navigate", "browser__nothing"}, true, true},
		{"extension advertised, not served", func() http.Handler { return liarHandler("browser", browserTools...) },
			[]string{"pdf", "browser__navigate", "browser__nothing"}, true, true},
		{"no extension", func() http.Handler { return plainHandler("browser", browserTools...) },
			[]string{"pdf", "browser__navigate", "browser__nothing"}, true, false},
	} {
		t.Run(test.name, func(t *testing.T) {
			url, log, stop := serve(test.handler())
			defer stop()
			clients := []*searchclient.Client{connect(t, url, nil)}
			sel := mustSelect(t, clients, "take a screenshot, then save the page as pdf", searchclient.Budget{Tools: 3}, test.pins...)
			if got := picked(sel); got != "*browser__pdf *browser__navigate browser__take_screenshot" {
				t.Errorf("got %q; want the two pinned tools, then the best found", got)
			}
			if fmt.Sprint(sel.Missing) != "[browser__nothing]" {
				t.Errorf("missing: got %v, want [browser__nothing]", sel.Missing)
			}
			if got := log.count("tools/list") > 0; got != test.list {
				t.Errorf("tools/list walked: %v, want %v (traffic: %s)", got, test.list, log)
			}
			if got := log.count("tools/search select:") > 0; got != test.selectSearch {
				t.Errorf("select: search sent: %v, want %v (traffic: %s)", got, test.selectSearch, log)
			}
		})
	}
}

// TestSelectMerge merges a server with the extension (scores 100 times
// the scale of the other) and one without by normalised score; a tool two
// servers give under one canonical name is kept once, from the first
// server; tools of two servers that share a bare name are both kept,
// qualified.
func TestSelectMerge(t *testing.T) {
	browserURL, _, stop1 := serve(selectingHandler("browser", 100, browserTools...))
	defer stop1()
	// A server named browser without the extension: its take_screenshot is
	// browser__take_screenshot, as the first server's is.
	sameURL, _, stop2 := serve(plainHandler("browser", tool{"take_screenshot", "Take a screenshot"}, tool{"search", "Search the screenshot history"}))
	defer stop2()
	docsURL, _, stop3 := serve(plainHandler("docs", tool{"search", "Search the docs for a screenshot"}, tool{"lint", "Lint a file"}))
	defer stop3()
	clients := []*searchclient.Client{connect(t, browserURL, nil), connect(t, sameURL, nil), connect(t, docsURL, nil)}
	sel := mustSelect(t, clients, "screenshot search", searchclient.Budget{Tools: 10})
	var got []string
	for _, tl := range sel.Tools {
		got = append(got, fmt.Sprintf("%s(%s %s %.2f)", tl.Canonical, tl.Client.Name(), tl.Name, tl.Score))
	}
	// The second server's take_screenshot (a weaker match there, ranked
	// locally) is the first's browser__take_screenshot: kept once, from the
	// first. The two bare search tools are told apart by their servers.
	// Each server's best scores 1; ties go by server.
	const want = "[browser__take_screenshot(browser browser__take_screenshot 1.00) browser__search(browser search 1.00) docs__search(docs search 1.00)]"
	if fmt.Sprint(got) != want {
		t.Errorf("got %v\nwant %s", got, want)
	}
	if got := sel.Tools[0].Client; got != clients[0] {
		t.Errorf("browser__take_screenshot: got client %p, want the first server's %p", got, clients[0])
	}
}

// TestSelectFailures: a server that is down, or does not answer before the
// deadline, is reported and the others are used; when every server fails,
// Select fails.
func TestSelectFailures(t *testing.T) {
	clients, _, _ := twoServers(t)
	goneURL, _, stopGone := serve(selectingHandler("gone", 1, browserTools...))
	gone := connect(t, goneURL, nil)
	stopGone()
	slowURL, _, stopSlow := serve(selectingHandler("slow", 1, browserTools...), "tools/search")
	defer stopSlow()
	slow := connect(t, slowURL, nil)

	ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
	defer cancel()
	start := time.Now()
	sel, err := searchclient.Select(ctx, append(clients, gone, slow), "screenshot of a diff", searchclient.Budget{Tools: 4},
		&searchclient.SelectOptions{Pinned: []string{"slow__pdf", "git__list_branches"}})
	if err != nil {
		t.Fatal(err)
	}
	if elapsed := time.Since(start); elapsed > 3*time.Second {
		t.Errorf("took %v, want the deadline of 500ms to bound it", elapsed)
	}
	if got := picked(sel); got != "*git__list_branches browser__take_screenshot git__screenshot_diff browser__click" {
		t.Errorf("got %q, want the pinned tool and those found by the servers that answered", got)
	}
	if len(sel.Failures) != 2 || sel.Failures["gone"] == nil || !errors.Is(sel.Failures["slow"], context.DeadlineExceeded) {
		t.Errorf("failures: got %v; want gone, and slow past its deadline", sel.Failures)
	}
	if fmt.Sprint(sel.Missing) != "[slow__pdf]" {
		t.Errorf("missing: got %v, want [slow__pdf]", sel.Missing)
	}
	sel, err = searchclient.Select(context.Background(), []*searchclient.Client{gone}, "screenshot", searchclient.Budget{Tools: 4}, nil)
	if err == nil || sel == nil || sel.Failures["gone"] == nil {
		t.Errorf("every server down: got %v, %v; want an error and the failure named", sel, err)
	}
}

// TestSelectDeterministic: the servers answer in whatever order, the
// selection is the same.
func TestSelectDeterministic(t *testing.T) {
	clients, _, _ := twoServers(t)
	url, _, stop := serve(plainHandler("docs", tool{"render_screenshot", "Render a screenshot of a page"}, tool{"search_docs", "Search the docs"}))
	defer stop()
	clients = append(clients, connect(t, url, nil))
	var first string
	for i := range 20 {
		slices.Reverse(clients) // the order of the clients decides ties only
		sel := mustSelect(t, clients, "render a screenshot of the page diff", searchclient.Budget{Tools: 5, Tokens: 400}, "docs__search_docs")
		got := fmt.Sprintf("%q %d %v", picked(sel), sel.Tokens, sel.Skipped)
		if i == 0 {
			first = got
		} else if got != first {
			t.Fatalf("run %d: got %s, the first run %s", i, got, first)
		}
	}
}

func TestSelectBadInput(t *testing.T) {
	clients, _, _ := twoServers(t)
	for _, test := range []struct {
		name    string
		clients []*searchclient.Client
		budget  searchclient.Budget
		want    string
	}{
		{"no budget", clients, searchclient.Budget{}, "neither tools nor tokens"},
		{"negative tools", clients, searchclient.Budget{Tools: -1, Tokens: 10}, "want neither negative"},
		{"negative tokens", clients, searchclient.Budget{Tools: 1, Tokens: -1}, "want neither negative"},
		{"no servers", nil, searchclient.Budget{Tools: 1}, "over no servers"},
	} {
		t.Run(test.name, func(t *testing.T) {
			_, err := searchclient.Select(context.Background(), test.clients, "screenshot", test.budget, nil)
			if err == nil || !strings.Contains(err.Error(), test.want) {
				t.Errorf("got %v, want an error saying %q", err, test.want)
			}
		})
	}
	// An empty message selects the pinned tools only.
	sel := mustSelect(t, clients, "  ", searchclient.Budget{Tools: 5}, "browser__pdf")
	if got := picked(sel); got != "*browser__pdf" {
		t.Errorf("empty message: got %q, want *browser__pdf", got)
	}
	// A message past the limits of a query is cut to them, not refused.
	sel = mustSelect(t, clients, strings.Repeat("screenshot ", 3*ext.MaxQueryTerms), searchclient.Budget{Tools: 2})
	if got := picked(sel); got != "browser__take_screenshot git__screenshot_diff" {
		t.Errorf("long message: got %q", got)
	}
}
