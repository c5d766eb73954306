package cli

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// FlagSet is the flag set of a command. Asked for (-h, --help), its usage
// goes to standard output; after a mistake, the message and the usage go
// to standard error.
type FlagSet struct {
	*flag.FlagSet
	Operands string // what follows the flags on the usage line, e.g. "QUERY..."
	stdout   io.Writer
	stderr   io.Writer
	buf      bytes.Buffer
}

// NewFlags returns the flag set of the command name; it reports errors
// instead of exiting.
func NewFlags(program, name string, stdout, stderr io.Writer) *FlagSet {
	fs := &FlagSet{FlagSet: flag.NewFlagSet(program+" "+name, flag.ContinueOnError), stdout: stdout, stderr: stderr}
	fs.SetOutput(&fs.buf)
	fs.Usage = fs.printUsage
	return fs
}

func (fs *FlagSet) printUsage() {
	line := "usage: " + fs.Name() + " [flags]"
	if fs.Operands != "" {
		line += " " + fs.Operands
	}
	fmt.Fprintf(fs.Output(), "%s\n\nflags:\n", line)
	fs.PrintDefaults()
}

// ErrFlags is a mistake in the flags, already told with the usage; the
// exit code is 2.
var ErrFlags = errors.New("bad flags")

// Parse parses args. It returns flag.ErrHelp when help was asked for and
// ErrFlags after a mistake; the flag set has told the user either way.
func (fs *FlagSet) Parse(args []string) error {
	err := fs.FlagSet.Parse(args)
	out := fs.stderr
	if errors.Is(err, flag.ErrHelp) {
		out = fs.stdout
	}
	fs.buf.WriteTo(out)
	if err != nil && !errors.Is(err, flag.ErrHelp) {
		return ErrFlags
	}
	return err
}

// ParseOperands parses args as Parse does, but takes flags wherever they
// stand among the operands ("weather forecast --limit 3"): only "--" ends
// the flags, and the words after it are operands even when they start
// with "-". It returns the operands in their order.
func (fs *FlagSet) ParseOperands(args []string) ([]string, error) {
	var operands []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(operands, rest...), nil
		}
		if len(rest) == 0 {
			return operands, nil
		}
		operands = append(operands, rest[0])
		args = rest[1:]
	}
}

// Require fails with a usage error naming every flag of names that is
// empty, in the order of names (callers give the order of declaration).
func (fs *FlagSet) Require(names ...string) error {
	var missing []string
	for _, name := range names {
		if fs.Lookup(name).Value.String() == "" {
			missing = append(missing, "--"+name)
		}
	}
	switch len(missing) {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("%w: %s is required", ErrUsage, missing[0])
	}
	last := len(missing) - 1
	return fmt.Errorf("%w: %s and %s are required", ErrUsage, strings.Join(missing[:last], ", "), missing[last])
}

// SplitList splits a comma-separated list, dropping white space around
// each element and empty elements.
func SplitList(s string) []string {
	var out []string
	for _, f := range strings.Split(s, ",") {
		if f = strings.TrimSpace(f); f != "" {
			out = append(out, f)
		}
	}
	return out
}

// ParseInts parses a comma-separated list of positive whole numbers.
func ParseInts(list string) ([]int, error) {
	var out []int
	for _, s := range strings.Split(list, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			return nil, fmt.Errorf("%q is not a positive whole number", s)
		}
		out = append(out, n)
	}
	return out, nil
}
