package searchclient_test

import (
	"os"
	"strings"
	"testing"
)

// TestReadmeSelect: the Select snippet of ext/README.md and the output it
// shows are ExampleSelect's, which go test runs.
func TestReadmeSelect(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	if err != nil {
		t.Fatal(err)
	}
	example, err := os.ReadFile("example_test.go")
	if err != nil {
		t.Fatal(err)
	}
	body := string(example)
	body = body[strings.Index(body, "func ExampleSelect()"):]
	body = body[strings.Index(body, "\tsel, err := searchclient.Select("):]
	code, output, _ := strings.Cut(body, "\t// Output:\n")
	output = output[:strings.Index(output, "}")]
	wantCode := strings.ReplaceAll("\n"+code, "\n\t", "\n")[1:]
	wantOutput := strings.ReplaceAll(strings.ReplaceAll("\n"+output, "\n\t// ", "\n"), "\n\t//", "\n")[1:]

	doc := string(readme)
	start := strings.Index(doc, "```go\nsel, err := searchclient.Select(")
	if start < 0 {
		t.Fatal("ext/README.md has no Go snippet that calls searchclient.Select")
	}
	doc = doc[start+len("```go\n"):]
	gotCode, rest, _ := strings.Cut(doc, "```\n")
	if gotCode != wantCode {
		t.Errorf("ext/README.md Select snippet:\n%s\nwant the body of ExampleSelect:\n%s", gotCode, wantCode)
	}
	rest = strings.TrimLeft(rest, "\n")
	gotOutput, _, _ := strings.Cut(strings.TrimPrefix(rest, "```text\n"), "```\n")
	if !strings.HasPrefix(rest, "```text\n") || gotOutput != wantOutput {
		t.Errorf("ext/README.md Select output:\n%s\nwant ExampleSelect's:\n%s", rest[:min(len(rest), 400)], wantOutput)
	}
}
