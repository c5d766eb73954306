package eval

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
)

// FiguresFile is the gate's results, relative to the repository's root:
// the figures of one run of every set (mcpsearch-lab gate --write-figures),
// from which the README tables of the gate's figures are rendered.
const FiguresFile = "infra/lab/eval/figures.json"

// Measured is the content of a results file: by set, eval --json's
// figures of one run, and its number of tools ("tools").
type Measured struct {
	Sets map[string]map[string]any `json:"sets"`
}

// LoadMeasured reads a results file.
func LoadMeasured(path string) (*Measured, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var m Measured
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	if len(m.Sets) == 0 {
		return nil, fmt.Errorf("%s: sets: none", path)
	}
	return &m, nil
}

// Figure is the figure of the set named by key (eval --json's, nested
// keys joined by dots).
func (m *Measured) Figure(set, key string) (float64, bool) {
	var v any = m.Sets[set]
	for part := range strings.SplitSeq(key, ".") {
		obj, ok := v.(map[string]any)
		if !ok {
			return 0, false
		}
		v = obj[part]
	}
	f, ok := v.(float64)
	return f, ok
}

// CheckBounds fails naming every figure of m past its bound in g, and
// every set or bounded figure of g that m lacks.
func (m *Measured) CheckBounds(g *Gate) error {
	var errs []error
	for _, s := range g.Sets {
		if m.Sets[s.Name] == nil {
			errs = append(errs, fmt.Errorf("set %s: not measured", s.Name))
			continue
		}
		for _, b := range s.Bounds {
			got, ok := m.Figure(s.Name, b.Figure)
			got = math.Round(got*10000) / 10000 // as eval --json reports it to the gate
			switch {
			case !ok:
				errs = append(errs, fmt.Errorf("set %s: %s: not measured", s.Name, b.Figure))
			case b.Min != nil && got < *b.Min:
				errs = append(errs, fmt.Errorf("set %s: %s %.4f is below its floor %.4f", s.Name, b.Figure, got, *b.Min))
			case b.Max != nil && got > *b.Max:
				errs = append(errs, fmt.Errorf("set %s: %s %.4f is above its ceiling %.4f", s.Name, b.Figure, got, *b.Max))
			}
		}
	}
	return errors.Join(errs...)
}

// A Markdown table's rows, each a list of cells.
type mdTable struct {
	header []string
	align  []string // "---" or "--:" per column
	rows   [][]string
}

func (t mdTable) String() string {
	var b strings.Builder
	line := func(cells []string) {
		b.WriteString("|")
		for _, c := range cells {
			if c != "" {
				b.WriteString(" " + c)
			}
			b.WriteString(" |")
		}
		b.WriteString("\n")
	}
	line(t.header)
	b.WriteString("|" + strings.Join(t.align, "|") + "|\n")
	for _, r := range t.rows {
		line(r)
	}
	return b.String()
}

// share writes a figure as the README tables do: three decimals without
// the leading zero (.827), 0 as "0".
func share(v float64) string { return shareN(v, 3) }

// shareN is share with n decimals.
func shareN(v float64, n int) string {
	if v == 0 {
		return "0"
	}
	return strings.TrimPrefix(strconv.FormatFloat(v, 'f', n, 64), "0")
}

// thousands writes n with commas between its thousands (4,584).
func thousands(n float64) string {
	s := strconv.Itoa(int(n))
	for i := len(s) - 3; i > 0; i -= 3 {
		s = s[:i] + "," + s[i:]
	}
	return s
}

// Tables are the names of the tables RenderTable renders.
func Tables() []string { return slices.Sorted(maps.Keys(tables)) }

// RenderTable renders the table name from the gate's data and a run's
// figures.
func RenderTable(name string, g *Gate, m *Measured) (string, error) {
	render, ok := tables[name]
	if !ok {
		return "", fmt.Errorf("no gate table is named %q (known: %s)", name, strings.Join(Tables(), ", "))
	}
	r := &renderer{g: g, m: m}
	t := render(r)
	if r.err != nil {
		return "", fmt.Errorf("gate table %s: %w", name, r.err)
	}
	return t.String(), nil
}

// renderer looks figures up for a table, keeping the first it lacks.
type renderer struct {
	g   *Gate
	m   *Measured
	err error
}

func (r *renderer) figure(set, key string) float64 {
	v, ok := r.m.Figure(set, key)
	if !ok && r.err == nil {
		r.err = fmt.Errorf("set %s: no figure %s in the results", set, key)
	}
	return v
}

func (r *renderer) set(name string) GateSet {
	s, ok := r.g.Set(name)
	if !ok && r.err == nil {
		r.err = fmt.Errorf("no set %s in the gate's data", name)
	}
	return s
}

// label fills a row label's {tools}, {queries} (of the subset prefix,
// "splits.test." or "") and {split} with the set's.
func (r *renderer) label(set, prefix, template string) string {
	return strings.NewReplacer("{tools}", thousands(r.figure(set, "tools")),
		"{queries}", thousands(r.figure(set, prefix+"queries")),
		"{split}", splitWords(r.set(set))).Replace(template)
}
