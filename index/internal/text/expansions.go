package text

import "strings"

// queryExpansions are words a caller uses for what tools often call
// otherwise, keyed by stem: a query gets the words after its own. They are
// added to queries only, never replaced nor added to items (an Azure Event
// Grid holds no meetings; a deployment of Azure is not an installation).
var queryExpansions = map[string]string{
	"meet":     "event",         // a meeting is an event of a calendar
	"appoint":  "event",         // so is an appointment
	"remind":   "event",         // a reminder in a calendar is an event of it (issue 36)
	"http":     "fetch scrape",  // a page given by its URL is fetched or scraped (issue 36)
	"deploi":   "install apply", // to deploy is to install or apply
	"kubernet": "kubectl",       // Kubernetes' command line
	"kubectl":  "kubernetes",
	"helm":     "kubernetes", // Kubernetes' package manager
}

// WithQueryExpansions returns text with the words of queryExpansions after
// each word that has some, or text itself when none has.
func WithQueryExpansions(text string) string {
	var b strings.Builder
	last := 0
	for _, tok := range Tokens(text) {
		more, ok := queryExpansions[string(tok.Term)]
		if !ok || tok.End > len(text) || tok.End < last {
			continue
		}
		b.WriteString(text[last:tok.End] + " " + more)
		last = tok.End
	}
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}
