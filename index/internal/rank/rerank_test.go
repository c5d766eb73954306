package rank

import (
	"math"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/index/internal/rules"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// TestRerankSignals: re-ranking orders by the sum of each candidate's
// signals, which it keeps for the explanation: an exact name first, a name
// naming the asked action before one naming another, and past the window
// nothing is re-scored.
func TestRerankSignals(t *testing.T) {
	q := NewQuery(Read("delete a note"), []string{"delet", "note"}, 0)
	cands := []Candidate{
		{ID: "t/0", Label: "create_note", Words: []string{"creat", "note"}, BM25: 2, Score: 2},
		{ID: "t/1", Label: "delete_note", Words: []string{"delet", "note"}, BM25: 1.5, Score: 1.5},
		{ID: "t/2", Label: "deleteanote", Words: []string{"deleteanot"}, BM25: 0.5, Score: 0.5},
		{ID: "t/3", Label: "past", Words: []string{"past"}, BM25: 0.4, Score: 0.4},
	}
	Rerank(q, cands, 3)
	var got []string
	for _, c := range cands {
		got = append(got, c.ID)
	}
	if got, want := strings.Join(got, " "), "t/2 t/1 t/0 t/3"; got != want {
		t.Fatalf("got order %s, want %s", got, want)
	}
	for _, c := range cands[:3] {
		s := c.Signals
		if s == nil {
			t.Fatalf("%s: no signals in the window", c.ID)
		}
		sum := s.BM25Share + s.Name + s.ActionScore + s.SimilarityScore + s.ClauseScore + s.ExactNameScore
		if math.Abs(sum-c.Score) > 1e-12 {
			t.Errorf("%s: score %v, signals %+v", c.ID, c.Score, s)
		}
	}
	if s := cands[0].Signals; !s.ExactName {
		t.Errorf("got %+v first, want the exact name", s)
	}
	if s := cands[1].Signals; s.Action != "match" || len(s.NameWordsMatched) != 2 {
		t.Errorf("delete_note: got signals %+v, want an action match and both name words", s)
	}
	if s := cands[2].Signals; s.Action != "clash" {
		t.Errorf("create_note: got signals %+v, want an action clash", s)
	}
	if cands[3].Signals != nil || cands[3].Score != 0.4 {
		t.Errorf("past the window: got %+v, want its BM25 score and no signals", cands[3])
	}
}

func TestSeeAndCheckAskToRead(t *testing.T) {
	for _, test := range []struct {
		query string
		terms []string
		want  Action
	}{
		{"see the latest deployments", []string{"see", "latest", "deploy"}, actList},
		{"check the status of the pipeline", []string{"check", "statu", "pipelin"}, actGet},
	} {
		if q := NewQuery(Read(test.query), test.terms, 0); !q.Actions[test.want] {
			t.Errorf("NewQuery(%q).Actions: got %v, want %v among them", test.query, q.Actions, test.want)
		}
	}
}

// TestTellingAsksToSend: to tell, notify, ping or announce is to send a
// message, so a tool named for posting or sending matches the request
// (query-actions), and with the rule off it names no action.
func TestTellingAsksToSend(t *testing.T) {
	for _, test := range []struct {
		query string
		terms []string
	}{
		{"tell the team on slack the deploy is done", text.Analyze("tell the team on slack the deploy is done")},
		{"notify the on-call engineer", text.Analyze("notify the on-call engineer")},
		{"ping bob about the review", text.Analyze("ping bob about the review")},
		{"announce the release", text.Analyze("announce the release")},
	} {
		q := NewQuery(Read(test.query), test.terms, 0)
		if !q.Actions[actSend] {
			t.Errorf("NewQuery(%q) over %v: actions %v, want send among them", test.query, test.terms, q.Actions)
		}
		if got := actionSignal(q.Actions, text.Analyze("slack post message")); got != weightActionMatch {
			t.Errorf("%q: slack_post_message's action signal %v, want the match's %v", test.query, got, weightActionMatch)
		}
		if off := NewQuery(Read(test.query), test.terms, rules.Set(0).Without(rules.QueryActions)); off.Actions[actSend] {
			t.Errorf("NewQuery(%q) with query-actions off: actions %v, want no send", test.query, off.Actions)
		}
	}
}
