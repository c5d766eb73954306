package vectors

import (
	"slices"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/ext/catalog"
	"github.com/mcpsearch/mcpsearch/index/internal/requests"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// TestOwnTextInVectorsWhereRequestsAreWritten: an item without written
// requests has its own text as requests in its vector only where some
// item of its kind carries written requests.
func TestOwnTextInVectorsWhereRequestsAreWritten(t *testing.T) {
	t.Parallel()
	asked := catalog.Item{Kind: ext.KindTool, Label: "submit_expense", Description: "Submit an expense.", Requests: []string{"file my taxi receipt"}}
	plain := catalog.Item{Kind: ext.KindTool, Label: "approve_expense", Description: "Mark a pending report as accepted by its reviewer. It notifies the submitter by mail."}
	prompt := catalog.Item{Kind: ext.KindPrompt, Label: "summary", Description: "Summarise a report."}
	own := requests.OwnTextKinds([]catalog.Item{asked, plain, prompt})
	if !own[ext.KindTool] || own[ext.KindPrompt] {
		t.Errorf("OwnTextKinds = %v, want tools only (a tool carries written requests, no prompt does)", own)
	}
	if len(requests.OwnTextKinds([]catalog.Item{plain, prompt})) != 0 {
		t.Error("OwnTextKinds of a catalog without written requests is not empty")
	}
	w, err := text.WordTable()
	if err != nil {
		t.Fatal(err)
	}
	with, without := itemVector(w, &plain, true), itemVector(w, &plain, false)
	if with == nil || without == nil || slices.Equal(with, without) {
		t.Errorf("approve_expense's vector with its own text as requests is the same as without it")
	}
	if a, b := itemVector(w, &asked, true), itemVector(w, &asked, false); !slices.Equal(a, b) {
		t.Errorf("an item with written requests: its vector changed with own-text")
	}
}
