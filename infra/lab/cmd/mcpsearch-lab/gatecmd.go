package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"github.com/mcpsearch/mcpsearch/infra/cli"
	"github.com/mcpsearch/mcpsearch/infra/lab/eval"
	"github.com/mcpsearch/mcpsearch/infra/requests"
)

// runGate is mcpsearch-lab gate: every set of the gate's data (eval.GateFile)
// evaluated in turn, its report printed under a "== NAME (TITLE)" line,
// and a failure when a figure is past its floor or ceiling.
func runGate(args []string, stdout, stderr io.Writer) error {
	fs := newFlags("gate", stdout, stderr)
	fs.Operands = "[EVAL_DIR]"
	data := fs.String("data", eval.GateFile, "the gate's data `FILE`: sets, splits, floors and ceilings")
	figures := fs.String("write-figures", "", "write every set's figures (eval --json's, and its tools) into `FILE`, the results the README tables are rendered from")
	only := fs.String("sets", "", "the sets to run, comma-separated (default: every set)")
	off := fs.String("off", "", "retrieval `RULES` switched off in every set, comma-separated (see eval --ablate): a retirement measured before its code goes; the bounds still apply")
	if err := fs.Parse(args); err != nil {
		return err
	}
	g, err := eval.LoadGate(*data)
	if err != nil {
		return fmt.Errorf("%w: --data: %w", cli.ErrUsage, err)
	}
	dir, err := gateDir(g, fs.Args())
	if err != nil {
		return err
	}
	sets, err := chooseGateSets(g, *only)
	if err != nil {
		return err
	}
	for _, s := range sets {
		if err := s.CheckFiles(s.Paths(dir, "")); err != nil {
			return fmt.Errorf("%s: %w", *data, err)
		}
	}
	measured := map[string]map[string]any{}
	var failed []string
	for _, s := range sets {
		obj, err := gateSet(s, dir, *off, stdout)
		if err != nil {
			fmt.Fprintf(stderr, "%s gate: %s: %v\n", program, s.Name, err)
			failed = append(failed, s.Name)
		}
		if obj != nil {
			measured[s.Name] = obj
		}
	}
	if *figures != "" {
		if err := writeFigures(*figures, measured); err != nil {
			return err
		}
	}
	if len(failed) > 0 {
		return fmt.Errorf("quality gate: %d of %d sets failed: %s", len(failed), len(sets), strings.Join(failed, ", "))
	}
	return nil
}

// gateDir is the directory of the sets' files: the operand, or the gate's.
func gateDir(g *eval.Gate, operands []string) (string, error) {
	if len(operands) > 1 {
		return "", fmt.Errorf("%w: want at most one EVAL_DIR, got %d operands", cli.ErrUsage, len(operands))
	}
	dir := g.Dir
	if len(operands) == 1 {
		dir = operands[0]
	}
	if st, err := os.Stat(dir); err != nil || !st.IsDir() {
		return "", fmt.Errorf("%w: no benchmark data at %s", cli.ErrUsage, dir)
	}
	return dir, nil
}

// chooseGateSets returns the sets of g named in names (comma-separated;
// every set when empty), in the gate's order.
func chooseGateSets(g *eval.Gate, names string) ([]eval.GateSet, error) {
	if names == "" {
		return g.Sets, nil
	}
	var out []eval.GateSet
	for _, n := range cli.SplitList(names) {
		s, ok := g.Set(n)
		if !ok {
			return nil, fmt.Errorf("%w: --sets: no set is named %q (known: %s)", cli.ErrUsage, n, strings.Join(gateSetNames(g.Sets), ", "))
		}
		out = append(out, s)
	}
	return out, nil
}

func gateSetNames(sets []eval.GateSet) []string {
	var names []string
	for _, s := range sets {
		names = append(names, s.Name)
	}
	return names
}

// gateSet evaluates one set with the rules of off switched off, prints its
// header and report (the lines its Show matches) and returns its figures
// to six decimals, and an error naming each figure past its bound (bounds
// compare eval --json's four, as eval --min does).
func gateSet(s eval.GateSet, dir, off string, stdout io.Writer) (map[string]any, error) {
	header := "== " + s.Name
	if s.Title != "" {
		header += " (" + s.Title + ")"
	}
	fmt.Fprintln(stdout, header)
	b, cleanup, err := gateBenchmark(s, dir)
	if err != nil {
		return nil, err
	}
	defer cleanup()
	b.off = off
	ks := s.Ks()
	rep, err := evaluate(b, ks, s.Every, s.Offset)
	if err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := rep.print(&out, ks); err != nil {
		return nil, err
	}
	if err := printShown(stdout, out.String(), s.Show); err != nil {
		return nil, err
	}
	obj := rep.jsonObject(ks)
	bounds := errors.Join(checkFloors(obj, boundList(s.Bounds, true)), checkCeilings(obj, boundList(s.Bounds, false)))
	precise := rep.figures(ks, round6)
	precise["tools"] = rep.tools
	return precise, bounds
}

// printShown prints the lines of report that show matches (every line
// when show is empty).
func printShown(w io.Writer, report, show string) error {
	if show == "" {
		_, err := io.WriteString(w, report)
		return err
	}
	re, err := regexp.Compile(show)
	if err != nil {
		return err
	}
	for line := range strings.Lines(report) {
		if re.MatchString(strings.TrimSuffix(line, "\n")) {
			if _, err := io.WriteString(w, line); err != nil {
				return err
			}
		}
	}
	return nil
}

// boundList writes the floors (or the ceilings) of bounds as eval's --min
// (--max) takes them: "key=value,…".
func boundList(bounds []eval.Bound, floors bool) string {
	var parts []string
	for _, b := range bounds {
		if (b.Min != nil) == floors {
			parts = append(parts, b.Figure+"="+strconv.FormatFloat(b.Value(), 'f', -1, 64))
		}
	}
	return strings.Join(parts, ",")
}

// gateBenchmark names the files of the set under dir; a holdout set's
// catalog and queries are written into a temporary directory, which
// cleanup removes.
func gateBenchmark(s eval.GateSet, dir string) (b benchmark, cleanup func(), err error) {
	p := s.Paths(dir, "")
	b = benchmark{tools: p.Tools, catalog: p.Catalog, queries: p.Queries, negatives: p.Negatives}
	if s.Holdout == nil {
		return b, func() {}, nil
	}
	work, err := os.MkdirTemp("", "mcpsearch-gate-holdout-")
	if err != nil {
		return b, nil, err
	}
	cleanup = func() { os.RemoveAll(work) }
	b.catalog, b.queries = filepath.Join(work, "catalog"), filepath.Join(work, "queries.jsonl")
	if err := holdOutBeside(*s.Holdout, b.catalog, b.queries); err != nil {
		cleanup()
		return b, nil, fmt.Errorf("holdout: %w", err)
	}
	return b, cleanup, nil
}

// holdOutBeside writes h's catalog without its held-out requests into out,
// beside the server files of h.Beside, and the held-out requests into
// queries (mcpsearch-lab holdout, then the copy of infra/lab/eval/everyday-catalog.sh).
func holdOutBeside(h eval.Holdout, out, queries string) error {
	held, err := requests.HoldOut(h.Catalog, out, h.N)
	if err != nil {
		return err
	}
	if err := writeHeldOut(queries, held); err != nil {
		return err
	}
	if h.Beside == "" {
		return nil
	}
	files, err := filepath.Glob(filepath.Join(h.Beside, "*.json"))
	if err != nil {
		return err
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		if err := os.WriteFile(filepath.Join(out, filepath.Base(f)), data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// writeFigures writes the figures of every set measured as the gate's
// results file (eval.Measured).
func writeFigures(path string, sets map[string]map[string]any) error {
	data, err := json.MarshalIndent(map[string]any{"sets": sets}, "", " ")
	if err != nil {
		return err
	}
	if err := os.WriteFile(path, append(data, '\n'), 0o644); err != nil {
		return fmt.Errorf("--write-figures: %w", err)
	}
	return nil
}
