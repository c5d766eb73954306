package main

import (
	"fmt"
	"io"
	"runtime"
	"runtime/debug"
	"strings"

	"github.com/mcpsearch/mcpsearch/index"
)

// infoUsage is what the function says of its command line: it takes no
// arguments to serve; these print and exit.
const infoUsage = `usage: search                serve (configured by the environment, see functions/search/README.md)
       search --version      print the version
       search --notices      print the third-party notices of what this binary holds
`

// commandLine answers the function's only arguments, --version and
// --notices, and refuses any other: it returns the exit code.
func commandLine(args []string, stdout, stderr io.Writer) int {
	if len(args) != 1 {
		fmt.Fprint(stderr, infoUsage)
		return 2
	}
	switch strings.TrimPrefix(args[0], "-") {
	case "-version", "version":
		fmt.Fprintf(stdout, "mcpsearch search function %s (%s, %s/%s, index format %d)\n", version, runtime.Version(), runtime.GOOS, runtime.GOARCH, index.FormatVersion)
		return 0
	case "-notices", "notices":
		fmt.Fprint(stdout, notices())
		return 0
	case "-help", "help", "h":
		fmt.Fprint(stdout, infoUsage)
		return 0
	}
	fmt.Fprintf(stderr, "search: unknown argument %q\n%s", args[0], infoUsage)
	return 2
}

// notices are the third-party notices of this binary: the data the index
// code embeds, with their licences, and the Go modules it links, whose
// licences the Lambda artifact holds in THIRD_PARTY_NOTICES.
func notices() string {
	var b strings.Builder
	b.WriteString("Third-party notices of the mcpsearch search function.\n\n")
	b.WriteString(index.Notices())
	b.WriteString("\n=== Go modules linked into this binary ===\n\n")
	b.WriteString("Their licence texts, and Go's, are in THIRD_PARTY_NOTICES beside bootstrap in the\nLambda artifact (mcpsearch package) and in each module's source.\n\n")
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, m := range info.Deps {
			if m.Replace != nil {
				m = m.Replace
			}
			fmt.Fprintf(&b, "%s %s\n", m.Path, m.Version)
		}
	}
	return b.String()
}
