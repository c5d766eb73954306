package rank

// Action is what a tool does to its object.
type Action int

const (
	actList Action = iota + 1
	actGet
	actCreate
	actDelete
	actUpdate
	actRun    // run, execute, trigger
	actSend   // send, post, reply, forward
	actCancel // cancel, dismiss, abort
)

// actionsOf maps analysed (stemmed) words to the actions they name.
// "show" may ask for one item or many.
var actionsOf = map[string][]Action{
	"list": {actList}, "enumer": {actList}, "all": {actList},
	"get": {actGet}, "fetch": {actGet}, "retriev": {actGet}, "read": {actGet}, "describ": {actGet}, "detail": {actGet},
	"show": {actGet, actList}, "view": {actGet, actList}, "see": {actGet, actList}, "check": {actGet},
	"creat": {actCreate}, "add": {actCreate}, "new": {actCreate}, "make": {actCreate}, "insert": {actCreate},
	"delet": {actDelete}, "remov": {actDelete}, "eras": {actDelete}, "destroi": {actDelete}, "drop": {actDelete},
	"updat": {actUpdate}, "modifi": {actUpdate}, "edit": {actUpdate}, "chang": {actUpdate}, "set": {actUpdate}, "renam": {actUpdate},
	"run": {actRun}, "execut": {actRun}, "trigger": {actRun}, "plai": {actRun},
	"send": {actSend}, "post": {actSend}, "repli": {actSend}, "forward": {actSend},
	"cancel": {actCancel}, "dismiss": {actCancel}, "abort": {actCancel},
	"instal": {actCreate}, "appli": {actCreate, actUpdate},
}

// queryActionsOf maps analysed words that name an action when a caller
// asks, though not in a tool's name (a tool named pipeline_schedule or
// get_booking does not create): to schedule, book or arrange a meeting is
// to create an event, and to put a reminder in a calendar is to create
// one (issue 36); to tell, notify, ping or announce is to send a
// message ("tell the team on slack the deploy is done").
var queryActionsOf = map[string][]Action{
	"schedul": {actCreate}, "book": {actCreate}, "arrang": {actCreate}, "put": {actCreate},
	"tell": {actSend}, "notifi": {actSend}, "ping": {actSend}, "announc": {actSend},
}

// actionSignal rewards an item whose name names an action the query asks
// for and penalises one whose name names only other actions.
func actionSignal(want map[Action]bool, nameWords []string) float64 {
	if len(want) == 0 {
		return 0
	}
	named := false
	for _, w := range nameWords {
		for _, a := range actionsOf[w] {
			if a == actList && w == "all" {
				continue
			}
			named = true
			if want[a] {
				return weightActionMatch
			}
		}
	}
	if named {
		return -weightActionClash
	}
	return 0
}
