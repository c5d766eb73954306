// Package cli is what the command-line programs of the repository share:
// the operator's mcpsearch (infra/cmd/mcpsearch) and the lab's
// mcpsearch-lab (infra/lab/cmd/mcpsearch-lab). It holds the table of
// subcommands and their exit codes (0, 2 for a mistake in the command
// line, 1 for a failure), the flag sets that tell help on standard output
// and mistakes on standard error, and the flags naming a hosted
// embeddings endpoint.
package cli

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"sort"
)

// Command is one subcommand: it parses its own flags from args.
type Command struct {
	Summary string
	Run     func(args []string, stdout, stderr io.Writer) error
}

// ErrUsage marks an error in the command line; the exit code is 2.
var ErrUsage = errors.New("usage")

// Bounds of the flags that call a shared service (a model endpoint).
const (
	MaxConcurrency = 64
	MaxRetries     = 10
)

// Main runs the command of program that args name and returns the exit
// code: with no command or an unknown one, the usage on stderr and 2;
// asked for help, the usage on stdout and 0.
func Main(program string, commands map[string]Command, args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		Usage(program, commands, stderr)
		return 2
	}
	if IsHelp(args[0]) {
		Usage(program, commands, stdout)
		return 0
	}
	cmd, ok := commands[args[0]]
	if !ok {
		fmt.Fprintf(stderr, "%s: unknown command %q\n", program, args[0])
		Usage(program, commands, stderr)
		return 2
	}
	return ExitCode(cmd.Run(args[1:], stdout, stderr), program+" "+args[0], stderr)
}

// ExitCode tells err, unless the flag set already has, after the name of
// the command, and returns the exit code: 0 for none or help, 2 for a
// mistake in the command line, 1 for any other failure.
func ExitCode(err error, name string, stderr io.Writer) int {
	switch {
	case err == nil, errors.Is(err, flag.ErrHelp):
		return 0
	case errors.Is(err, ErrFlags):
		return 2
	}
	fmt.Fprintf(stderr, "%s: %v\n", name, err)
	if errors.Is(err, ErrUsage) {
		return 2
	}
	return 1
}

// IsHelp reports whether arg asks for help.
func IsHelp(arg string) bool { return arg == "-h" || arg == "--help" || arg == "help" }

// Usage lists program's commands, in the order of their names, their
// summaries in one column two spaces past the longest name.
func Usage(program string, commands map[string]Command, w io.Writer) {
	fmt.Fprintf(w, "usage: %s <command> [flags]\n\ncommands:\n", program)
	names := make([]string, 0, len(commands))
	for n := range commands {
		names = append(names, n)
	}
	sort.Strings(names)
	width := 0
	for _, n := range names {
		width = max(width, len(n))
	}
	for _, n := range names {
		fmt.Fprintf(w, "  %-*s  %s\n", width, n, commands[n].Summary)
	}
	fmt.Fprintf(w, "\nRun '%s <command> -h' for a command's flags.\n", program)
}
