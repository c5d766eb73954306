package searchclient_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log"
	"time"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/searchclient"
)

// Search a server, page by page. Against mcpsearch (go run ./functions/search)
// the URL is http://127.0.0.1:8080/mcp.
func ExampleClient_Search() {
	url, stop := startExtension("browser", 1, browserTools...)
	defer stop()

	ctx := context.Background()
	c, err := searchclient.Connect(ctx, url, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	fmt.Println("extension:", c.HasExtension(ext.KindTool))
	for page, err := range c.Search(ctx, ext.KindTool, "screenshot of the page", &searchclient.SearchOptions{Limit: 2}) {
		if err != nil {
			log.Fatal(err)
		}
		for _, it := range page.Items {
			fmt.Printf("%s (%s) %.0f\n", it.Name, it.Server, it.Score)
		}
		fmt.Println("--- next cursor:", page.NextCursor != "")
	}
	// Output:
	// extension: true
	// browser__take_screenshot (browser) 5
	// browser__click (browser) 3
	// --- next cursor: true
	// browser__pdf (browser) 2
	// browser__navigate (browser) 1
	// --- next cursor: false
}

// The same code against a server without the extension: the client walks
// tools/list and ranks locally.
func ExampleClient_Search_fallback() {
	url, stop := startPlain("browser", browserTools...)
	defer stop()

	ctx := context.Background()
	c, err := searchclient.Connect(ctx, url, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	fmt.Println("extension:", c.HasExtension(ext.KindTool))
	for page, err := range c.Search(ctx, ext.KindTool, "screenshot of the page", &searchclient.SearchOptions{Limit: 2}) {
		if err != nil {
			log.Fatal(err)
		}
		for _, it := range page.Items {
			fmt.Printf("%s (%s) %.2f\n", it.Name, it.Server, it.Score)
		}
		fmt.Println("--- ranked locally:", page.Fallback)
	}
	// Output:
	// extension: false
	// take_screenshot (browser) 2.27
	// click (browser) 0.38
	// --- ranked locally: true
	// pdf (browser) 0.36
	// --- ranked locally: true
}

// Search several servers at once; a server that fails is reported, not
// fatal.
func ExampleFanOut() {
	browser, stop1 := startExtension("browser", 1, browserTools...)
	defer stop1()
	git, stop2 := startExtension("git", 100, gitTools...)
	defer stop2()

	ctx := context.Background()
	var clients []*searchclient.Client
	for _, url := range []string{browser, git} {
		c, err := searchclient.Connect(ctx, url, nil)
		if err != nil {
			log.Fatal(err)
		}
		defer c.Close()
		clients = append(clients, c)
	}
	res, err := searchclient.FanOut(ctx, clients, ext.KindTool, "screenshot diff", &searchclient.SearchOptions{Limit: 3})
	if err != nil {
		log.Fatal(err)
	}
	for _, it := range res.Items {
		fmt.Printf("%s %.2f\n", it.Name, it.Score)
	}
	fmt.Println("failures:", len(res.Failures))
	// Output:
	// browser__take_screenshot 1.00
	// git__screenshot_diff 1.00
	// failures: 0
}

// Choose the tools to expose to the model for one turn of a conversation:
// the user's message searches every server (browser has the extension,
// git does not and is ranked locally), the tool the application always
// wants comes first, and the budget bounds both the count and the tokens
// of the definitions. The model is shown the canonical names; a call goes
// to t.Client with t.Name. (With Tokens: 150, git__create_merge_request,
// 62 tokens, would not fit after the first two tools' 103: it would be
// skipped and named in Skipped, and browser__navigate, 38, would take its
// place.)
func ExampleSelect() {
	browser, stop1 := startExtension("browser", 1, browserTools...)
	defer stop1()
	git, stop2 := startPlain("git", gitTools...)
	defer stop2()

	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	clients, closeAll := connectAll(ctx, browser, git) // searchclient.Connect each, as ExampleFanOut does
	defer closeAll()
	sel, err := searchclient.Select(ctx, clients,
		"Take a screenshot of the checkout page and open a merge request with it",
		searchclient.Budget{Tools: 4, Tokens: 200},
		&searchclient.SelectOptions{Pinned: []string{"git__list_branches"}})
	if err != nil {
		log.Fatal(err)
	}
	for _, t := range sel.Tools {
		fmt.Printf("%-30s %s.%s %d tokens, pinned %v\n", t.Canonical, t.Client.Name(), t.Name, t.Tokens, t.Pinned)
	}
	fmt.Println("tokens:", sel.Tokens, "skipped:", sel.Skipped, "failures:", len(sel.Failures))
	// Output:
	// git__list_branches             git.list_branches 60 tokens, pinned true
	// browser__take_screenshot       browser.browser__take_screenshot 43 tokens, pinned false
	// git__create_merge_request      git.create_merge_request 62 tokens, pinned false
	// tokens: 165 skipped: [] failures: 0
}

// Rank is the fallback's scoring, usable on its own.
func ExampleRank() {
	var items []json.RawMessage
	for _, t := range []string{
		`{"name":"get_weather","description":"Current weather for a city"}`,
		`{"name":"get_forecast","description":"Weather forecast for the next days"}`,
		`{"name":"send_email","description":"Send an email"}`,
	} {
		items = append(items, json.RawMessage(t))
	}
	for _, it := range searchclient.Rank("weather forecast", items) {
		fmt.Printf("%s %.2f\n", it.Name, it.Score)
	}
	// Output:
	// get_forecast 2.07
	// get_weather 0.79
}
