package index

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
)

// The newcomer's cases of issue 36, over the bundled default catalog: what
// a new user tried first, each the first item an agent would act on (the
// calendar and web page cases met by phrases of general knowledge:
// putting something in a calendar creates an event, summarising a page
// fetches its content).
func TestNewcomersCases(t *testing.T) {
	t.Parallel()
	x := defaultIndex(t)
	isCreate := func(h hitInfo) bool {
		n, d := strings.ToLower(h.Name), strings.ToLower(h.Description)
		return (strings.Contains(n, "create") || strings.Contains(n, "add") || strings.HasPrefix(d, "create")) && !destroysName(n)
	}
	for _, test := range []struct {
		query string
		top   int
		want  func(h hitInfo) bool
		about string
	}{
		{"open a jira ticket for the login page bug", 1, func(h hitInfo) bool { return strings.Contains(h.Server, "jira") && isCreate(h) }, "a non-destructive Jira create"},
		{"tell the team on slack the deploy is done", 1, func(h hitInfo) bool {
			n := strings.ToLower(h.Name)
			return strings.Contains(h.Server, "slack") && (strings.Contains(n, "post") || strings.Contains(n, "send"))
		}, "a Slack tool that posts"},
		{"launchdarkly switch off flag in production", 1, func(h hitInfo) bool { return !destroysName(strings.ToLower(h.Name)) }, "not a delete"},
		{"put a reminder in my calendar for the dentist", 1, func(h hitInfo) bool { return strings.Contains(strings.ToLower(h.Name), "calendar") && isCreate(h) }, "a calendar create"},
		{"summarise this web page https://example.com", 3, func(h hitInfo) bool {
			n := strings.ToLower(h.Name)
			return strings.Contains(n, "scrape") || strings.Contains(n, "fetch")
		}, "a scrape or fetch tool"},
	} {
		hits := searchHits(t, x, ext.KindTool, test.query, test.top, ext.Filter{})
		ok := false
		for _, h := range hits {
			ok = ok || test.want(h)
		}
		if !ok {
			t.Errorf("%q: got %v, want %s in the first %d", test.query, names(hits), test.about, test.top)
		}
	}
}

// TestFlightRequestsGetNothing: a flight is booked by no tool of the
// default catalog, however the request is put: no items, or a hint that
// names the flight.
func TestFlightRequestsGetNothing(t *testing.T) {
	t.Parallel()
	x := defaultIndex(t)
	for _, q := range []string{
		"book a flight to rome", "find the cheapest flight to rome", "find the cheapest flight to lisbon",
		"search for a flight to rome", "can you book me a flight to paris",
	} {
		page, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: q, Limit: 5})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Items) > 0 && !strings.Contains(page.Hint, "flight") {
			t.Errorf("%q: got %d items, hint %q; want none, or a hint naming the flight", q, len(page.Items), page.Hint)
		}
	}
}

func destroysName(n string) bool {
	for _, w := range []string{"delet", "remov", "drop", "kill", "purg", "wipe", "terminat", "revok", "destroy", "snooze"} {
		if strings.Contains(n, w) {
			return true
		}
	}
	return false
}
