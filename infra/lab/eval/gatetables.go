package eval

import (
	"fmt"
	"strings"
)

// tables are the README tables of the gate's figures and data, by the
// name their markers give (<!-- gate-table: NAME -->).
var tables = map[string]func(*renderer) mdTable{
	// README.md, "Retrieval quality": every set's reported figures.
	"summary": func(r *renderer) mdTable {
		t := r.publicTable("")
		for _, row := range []struct{ set, note string }{{"everyday", ""}, {"fresh", " (offcatalog2)"}, {"broad", " (its own)"}} {
			t.rows = append(t.rows, r.reportedRow(row.set, row.note))
		}
		return t
	},
	// index/README.md, "Retrieval quality": the public benchmarks.
	"public": func(r *renderer) mdTable { return r.publicTable(" reference") },
	// index/README.md: the everyday set's halves, English and typos.
	"everyday": func(r *renderer) mdTable {
		return r.halvesTable("everyday", []string{"recall@1", "recall@3", "recall@5", "recall@10", "ndcg@10", "mrr"}, "no-match on negatives",
			halfRow{"English", "langs.en.", "negative_langs.en."}, halfRow{"with typos", "typo.", ""})
	},
	// index/README.md: the broad set's halves.
	"broad": func(r *renderer) mdTable {
		return r.halvesTable("broad", []string{"recall@1", "recall@5", "recall@10", "ndcg@10"}, "no-match on its negatives")
	},
	// infra/README.md, "Eval": every floor and ceiling, with why.
	"bounds": (*renderer).boundsTable,
	// index/internal/retrieval/README.md: the sets, their files and splits.
	"sets": (*renderer).setsTable,
}

// columnNames are the table headers of eval's figures.
var columnNames = map[string]string{"recall@1": "R@1", "recall@3": "R@3", "recall@5": "R@5", "recall@10": "R@10", "ndcg@10": "nDCG@10", "mrr": "MRR"}

// publicFigures are the columns of the public benchmarks' table.
var publicFigures = []string{"recall@1", "recall@5", "recall@10", "ndcg@10", "mrr"}

// publicTable is the public benchmarks (the sets with a reference), a row
// of the reference's figures (its label followed by suffix) and one of the
// gate's each; the gate's figures better than the reference's are bold.
func (r *renderer) publicTable(suffix string) mdTable {
	t := mdTable{header: []string{"set", ""}, align: []string{"---", "---"}}
	for _, f := range publicFigures {
		t.header, t.align = append(t.header, columnNames[f]), append(t.align, "--:")
	}
	t.header, t.align = append(t.header, "no-match on negatives"), append(t.align, "--:")
	for _, s := range r.g.Sets {
		if s.Reference == nil {
			continue
		}
		ref := []string{r.label(s.Name, "", s.Label), s.Reference.Label + suffix}
		ours := []string{"", "**mcpsearch**"}
		for _, f := range publicFigures {
			got, base := r.figure(s.Name, f), s.Reference.Figures[f]
			ref = append(ref, share(base))
			cell := share(got)
			if got > base {
				cell = "**" + cell + "**"
			}
			ours = append(ours, cell)
		}
		ref = append(ref, "—")
		ours = append(ours, shareN(r.figure(s.Name, "no_match_rate"), 2))
		t.rows = append(t.rows, ref, ours)
	}
	return t
}

// reportedRow is a row of the summary table: the set's reported split,
// and its negatives' (their name in note).
func (r *renderer) reportedRow(set, note string) []string {
	s := r.set(set)
	prefix := "splits." + s.Reported + "."
	row := []string{r.label(set, prefix, s.Label), "**mcpsearch**"}
	for _, f := range publicFigures {
		row = append(row, share(r.figure(set, prefix+f)))
	}
	return append(row, shareN(r.figure(set, "negative_splits."+s.Reported+".no_match_rate"), 2)+note)
}

// halfRow is a row of a set's table: its label, the prefix of its
// figures and of its negatives' ("" for none).
type halfRow struct{ label, prefix, negatives string }

// halvesTable is a set's figures: the half tuned on, the half reported,
// then the rows of more.
func (r *renderer) halvesTable(set string, figures []string, negatives string, more ...halfRow) mdTable {
	s := r.set(set)
	t := mdTable{header: []string{set, "requests"}, align: []string{"---", "--:"}}
	for _, f := range figures {
		t.header, t.align = append(t.header, columnNames[f]), append(t.align, "--:")
	}
	t.header, t.align = append(t.header, "no items (of the requests)", negatives), append(t.align, "--:", "--:")
	rows := []halfRow{{s.TunedOn, "splits." + s.TunedOn + ".", "negative_splits." + s.TunedOn + "."},
		{s.Reported, "splits." + s.Reported + ".", "negative_splits." + s.Reported + "."}}
	for _, h := range append(rows, more...) {
		row := []string{h.label, thousands(r.figure(set, h.prefix+"queries"))}
		for _, f := range append(figures, "emptied_rate") {
			row = append(row, share(r.figure(set, h.prefix+f)))
		}
		noMatch := "—"
		if h.negatives != "" {
			noMatch = shareN(r.figure(set, h.negatives+"no_match_rate"), 2)
		}
		t.rows = append(t.rows, append(row, noMatch))
	}
	return t
}

// boundsTable is every bound of the gate, with the figure measured and
// why the bound stands there (a why like the row's above is not repeated).
func (r *renderer) boundsTable() mdTable {
	t := mdTable{header: []string{"set", "figure", "floor", "ceiling", "measured", "why"}, align: []string{"---", "---", "--:", "--:", "--:", "---"}}
	for _, s := range r.g.Sets {
		last := ""
		for _, b := range s.Bounds {
			floor, ceiling := "", ""
			if b.Min != nil {
				floor = fmt.Sprintf("%.3f", *b.Min)
			} else {
				ceiling = fmt.Sprintf("%.3f", *b.Max)
			}
			why := b.Why
			if why == last && why != "" {
				why = "as above"
			}
			last = b.Why
			t.rows = append(t.rows, []string{s.Name, "`" + b.Figure + "`", floor, ceiling, fmt.Sprintf("%.3f", r.figure(s.Name, b.Figure)), why})
		}
	}
	return t
}

// setsTable is every set of the gate: its tools, queries and negatives,
// the split tuned on and the one reported, and whether the ablation
// measures it.
func (r *renderer) setsTable() mdTable {
	t := mdTable{header: []string{"set", "tools", "queries", "negatives", "tuned on", "reported", "ablated"}, align: []string{"---", "---", "---", "---", "---", "---", "---"}}
	for _, s := range r.g.Sets {
		t.rows = append(t.rows, []string{s.Name, toolsCell(s), queriesCell(s), code(s.Negatives), tunedOnCell(s), cmpOr(s.Reported, "all"), yesNo(!s.NoAblate)})
	}
	return t
}

func toolsCell(s GateSet) string {
	switch {
	case s.Holdout != nil:
		cell := fmt.Sprintf("catalog %s, %d written requests a tool held out", code(s.Holdout.Catalog), s.Holdout.N)
		if s.Holdout.Beside != "" {
			cell += ", beside " + code(s.Holdout.Beside)
		}
		return cell
	case s.Catalog != "":
		return "catalog " + code(s.Catalog)
	}
	return code(s.Tools)
}

func queriesCell(s GateSet) string {
	if s.Holdout != nil {
		return "the held-out requests"
	}
	cell := code(s.Queries)
	if s.Every > 0 {
		cell += fmt.Sprintf(", lines i %% %d == %d", s.Every, s.Offset)
	}
	return cell
}

func tunedOnCell(s GateSet) string {
	switch s.TunedOn {
	case "":
		return "—"
	case "all":
		return "all (no dev/test split)"
	}
	return s.TunedOn
}

func code(s string) string {
	if s == "" {
		return "—"
	}
	return "`" + s + "`"
}

func cmpOr(s, or string) string {
	if s == "" {
		return or
	}
	return s
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

// splitWords says what a set's row figures are: its reported half, or
// tuned on.
func splitWords(s GateSet) string {
	switch {
	case s.Reported != "":
		return s.Reported + " half"
	case s.TunedOn == "all":
		return "tuned on"
	}
	return ""
}

// RewriteTables replaces the body of every gate table of doc (between
// the lines "<!-- gate-table: NAME -->" and "<!-- /gate-table -->") with
// its rendering, and returns the names it rendered.
func RewriteTables(doc string, g *Gate, m *Measured) (string, []string, error) {
	const open, end = "<!-- gate-table: ", "\n<!-- /gate-table -->"
	var out strings.Builder
	var names []string
	for {
		i := lineStarting(doc, open)
		if i < 0 {
			out.WriteString(doc)
			return out.String(), names, nil
		}
		nameEnd := strings.Index(doc[i:], " -->\n")
		if nameEnd < 0 || strings.Contains(doc[i:i+nameEnd], "\n") {
			return "", nil, fmt.Errorf("%q: want %sNAME --> on a line of its own", doc[i:min(len(doc), i+40)], open)
		}
		name := doc[i+len(open) : i+nameEnd]
		bodyStart := i + nameEnd + len(" -->\n")
		// The end marker, on a line of its own: the newline before it is the
		// open line's when the body is empty.
		j := strings.Index(doc[bodyStart-1:], end)
		if j < 0 {
			return "", nil, fmt.Errorf("gate table %s: no line %s after it", name, strings.TrimSpace(end))
		}
		table, err := RenderTable(name, g, m)
		if err != nil {
			return "", nil, err
		}
		out.WriteString(doc[:bodyStart] + table)
		names = append(names, name)
		doc = doc[bodyStart+j:]
	}
}

// lineStarting is the index of the first line of doc that starts with
// prefix, or -1.
func lineStarting(doc, prefix string) int {
	if strings.HasPrefix(doc, prefix) {
		return 0
	}
	if i := strings.Index(doc, "\n"+prefix); i >= 0 {
		return i + 1
	}
	return -1
}
