package catalog_test

import (
	"errors"
	"fmt"
	"log"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
)

// LoadDir reads and validates every server file of a catalog directory;
// tools and prompts get canonical names (server, separator, name).
func ExampleLoadDir() {
	cat, err := catalog.LoadDir("../../index/testdata/catalog", nil)
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(len(cat.Servers), "servers,", cat.Count(ext.KindTool), "tools")
	for _, it := range cat.Items[:3] {
		fmt.Println(it.Kind, it.Name, "←", it.UpstreamName)
	}
	// Output:
	// 2 servers, 6 tools
	// tool notes__create_note ← create_note
	// tool notes__delete_note ← delete_note
	// tool notes__list_notes ← list_notes
}

// A file that would not build is refused with a *LoadError naming the
// file, the item and the field; the crawler checks each file it writes
// this way.
func ExampleCheckServerFile() {
	file := []byte(`{"server": "notes", "tools": [{"name": "create note", "inputSchema": {"type": "object"}}]}`)
	err := catalog.CheckServerFile("catalog/notes.json", file, nil)
	var le *catalog.LoadError
	if errors.As(err, &le) {
		fmt.Println("file:", le.File)
		fmt.Println("item:", le.Item)
		fmt.Println("field:", le.Field)
	}
	fmt.Println(err)
	// Output:
	// file: catalog/notes.json
	// item: tools[0] "create note"
	// field: name
	// catalog/notes.json: tools[0] "create note": field name: character U+0020 at byte 6: a name holds no space, control, format or invalid character (MCP asks tool names for A-Z a-z 0-9 _ - .)
}
