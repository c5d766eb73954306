package index_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log"
	"os"
	"path/filepath"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index"
)

// openExample builds the small catalog of testdata/catalog into a
// temporary directory and opens it; done removes both.
func openExample() (x *index.Index, done func()) {
	tmp, err := os.MkdirTemp("", "mcpsearch-example-")
	if err != nil {
		log.Fatal(err)
	}
	bundle := filepath.Join(tmp, "bundle")
	if _, err := index.BuildDir("testdata/catalog", bundle, nil); err != nil {
		log.Fatal(err)
	}
	if x, err = index.Open(bundle); err != nil {
		log.Fatal(err)
	}
	return x, func() { x.Close(); os.RemoveAll(tmp) }
}

// name is the "name" (or "uri") of an MCP object.
func name(obj json.RawMessage) string {
	var o struct{ Name, URI string }
	json.Unmarshal(obj, &o)
	if o.URI != "" {
		return o.URI
	}
	return o.Name
}

// A bundle is built once from a catalog directory, then opened read-only
// and searched: the tools that fit the request come first, with their
// servers and scores.
func Example() {
	tmp, err := os.MkdirTemp("", "mcpsearch-example-")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	bundle := filepath.Join(tmp, "bundle")
	m, err := index.BuildDir("testdata/catalog", bundle, nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println("tools:", m.Counts[ext.KindTool])

	x, err := index.Open(bundle)
	if err != nil {
		log.Fatal(err)
	}
	defer x.Close()
	page, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: "remove a note", Limit: 2})
	if err != nil {
		log.Fatal(err)
	}
	for _, h := range page.Items {
		fmt.Printf("%s (%s) %.3f\n", name(h.Object), h.Server, h.Score)
	}
	// Output:
	// tools: 6
	// notes__delete_note (notes) 2.276
	// notes__create_note (notes) 1.039
}

// List returns a kind's items in catalog order, a page at a time.
func ExampleIndex_List() {
	x, done := openExample()
	defer done()
	page, err := x.List(context.Background(), ext.KindTool, 0, 4)
	if err != nil {
		log.Fatal(err)
	}
	for _, h := range page.Items {
		fmt.Println(name(h.Object))
	}
	fmt.Println("more:", page.More)
	// Output:
	// notes__create_note
	// notes__delete_note
	// notes__list_notes
	// notes__search
	// more: true
}

// Resolve finds the item a call names: its server, its name upstream and,
// when the catalog gives one, how to reach the server.
func ExampleIndex_Resolve() {
	x, done := openExample()
	defer done()
	t, err := x.Resolve(context.Background(), ext.KindTool, "weather__get_forecast")
	if err != nil {
		log.Fatal(err)
	}
	var upstream bytes.Buffer
	json.Compact(&upstream, t.Upstream)
	fmt.Println(t.Server, t.UpstreamName, upstream.String())
	_, err = x.Resolve(context.Background(), ext.KindTool, "weather__no_such_tool")
	fmt.Println("not found:", errors.Is(err, ext.ErrNotFound))
	// Output:
	// weather get_forecast {"transport":"streamable-http","url":"http://127.0.0.1:9/mcp"}
	// not found: true
}
