package index

import (
	"fmt"
	"strings"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/index/internal/errand"
	"github.com/mcpsearch/mcpsearch/index/internal/nomatch"
)

// ErrandReads is how many of one server's written tool requests the
// no-match test's errand model reads as everyday errands.
type ErrandReads struct {
	Server            string
	Requests, Errands int
}

// Share is the share of the server's requests read as errands.
func (r ErrandReads) Share() float64 {
	if r.Requests == 0 {
		return 0
	}
	return float64(r.Errands) / float64(r.Requests)
}

// ErrandReadsOf returns, server by server in catalog order, how many of
// the written requests of cat's tools the errand model reads as everyday
// errands (a score below nomatch.ErrandThreshold), or nil where tool searches
// never ask it (fewer than nomatch.MinAskedShare of the tools carry
// requests). A search that reads like a server's errand-like requests is
// likely to get no items: the model learned what the bundled catalog of
// software and office tools does not do, and a catalog that serves
// everyday life (meals, travel, maps) pays for it. ErrandServersNote names
// such servers; the function's MCPSEARCH_RULES_OFF=errand-model is the
// remedy (functions/search/README.md, "When nothing fits").
func ErrandReadsOf(cat *catalog.Catalog) ([]ErrandReads, error) {
	m, err := errand.Default()
	if err != nil {
		return nil, err
	}
	tools, asked := 0, 0
	byServer := map[string]*ErrandReads{}
	out := make([]ErrandReads, len(cat.Servers))
	for i, s := range cat.Servers {
		out[i].Server = s.Name
		byServer[s.Name] = &out[i]
	}
	for _, it := range cat.Items {
		if it.Kind != ext.KindTool {
			continue
		}
		tools++
		if len(it.Requests) > 0 {
			asked++
		}
		r := byServer[it.Server]
		if r == nil {
			continue
		}
		for _, q := range it.Requests {
			r.Requests++
			if m.Score(q) < nomatch.ErrandThreshold {
				r.Errands++
			}
		}
	}
	if tools == 0 || float64(asked) < nomatch.MinAskedShare*float64(tools) {
		return nil, nil
	}
	return out, nil
}

// errandNoteShare is the share of a server's written requests read as
// everyday errands from which ErrandServersNote names the server. The
// corpus's 12 servers at 5% or more (meals, flights, recipes, reminders,
// maps, translation; the bundled catalog's are all below) lost 10–36% of
// their held-out requests to the no-match test
// (infra/lab/eval/everyday-catalog.sh).
const errandNoteShare = 0.05

// ErrandServersNote is what a build of cat says of its servers whose
// written requests the errand model reads as everyday errands, at
// errandNoteShare of them or more (and at least 3), and what to set if the
// catalog serves everyday life: one line without its newline, or "" when
// no server is such (mcpsearch build and package, the local server's
// build at start).
func ErrandServersNote(cat *catalog.Catalog) (string, error) {
	reads, err := ErrandReadsOf(cat)
	if err != nil {
		return "", err
	}
	var named []string
	for _, r := range reads {
		if r.Errands >= 3 && r.Share() >= errandNoteShare {
			named = append(named, fmt.Sprintf("%s %.0f%% of %d", r.Server, 100*r.Share(), r.Requests))
		}
	}
	if len(named) == 0 {
		return "", nil
	}
	return "no-match: the errand model reads these servers' written requests as everyday errands (" + strings.Join(named, ", ") +
		"): searches like them may get no items; if the catalog serves everyday life, serve it with MCPSEARCH_RULES_OFF=errand-model " +
		"(functions/search/README.md, When nothing fits)", nil
}
