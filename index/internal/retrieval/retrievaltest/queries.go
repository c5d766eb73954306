package retrievaltest

// BenchQueries are the mix of tool requests the benchmarks of a search
// cycle through, one of each of the default catalog's common jobs.
var BenchQueries = []string{
	"open a merge request", "take a screenshot of the page", "list kubernetes pods",
	"send a slack message to a channel", "create a calendar event", "query a database table",
	"refund a payment", "search the web for news", "deploy a site", "read a file",
}

// BM25Shapes cover the query shapes BM25 must score as bleve does: short
// and long (more than ten words, where bleve switches to its heap
// disjunction), exact names, typos, generic verbs, other scripts, and
// words no item holds.
var BM25Shapes = []string{
	"browser_take_screenshot", "kubernets pods", "show me the keys in vault X",
	"who is on call this week", "remove a file", "get",
	"I need to find every open pull request in the repository assigned to me and then post a summary of them to the team channel",
	"预订 会议室", "order a pizza", "zzzz qqqq",
}

// TeamServer is a team's internal server: its tool's name and description
// are in the team's own words, and its requests in the words people use.
const TeamServer = `{"server":"acme","tools":[
 {"name":"run_recon","description":"Triggers the nightly recon job for ledger L2.","inputSchema":{"type":"object"},
  "_meta":{"io.github.mcpsearch/requests":["close the books for the month","balance the accounts before the audit","make sure the finance numbers add up"]}},
 {"name":"ping","description":"Health probe for the acme gateway.","inputSchema":{"type":"object"}}]}`
