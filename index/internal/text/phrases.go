package text

import (
	"slices"
	"strings"
	"sync"
	"unicode"
)

// phraseTable holds the phrasal verbs and idioms of software and office
// work that people type for what tools call by a plain verb or noun ("spin
// up a cluster": create; "tear down the stack": delete; "call off the
// standup": cancel a meeting). It is general knowledge, reviewed for
// ambiguity, not fitted to a catalog: a phrase that could mean something
// else in a request (check out a page, a call of an API) is bound to the
// words that make it unambiguous (check out a branch; a call with someone)
// or left out.
//
// One line a phrase, "slots => words": a slot is the forms a word may take,
// separated by "/"; "*" stands for up to two words of any kind (spin the
// cluster up). The first word is also matched in its regular inflections
// (kicks, kicked, kicking). The words are added after the phrase, to
// queries only (WithPhraseExpansions): the caller's own words stay, and no
// item is indexed under them. Products are followed by the names of the
// systems they belong to (Feishu is Lark's name in China; Outlook, Teams
// and OneDrive are Microsoft 365), so that a request naming one names the
// server.
const phraseTable = `
spin/spun * up => create start
spin/spun * down => stop delete
fire/fired * up => start
power * on => start
power * off => stop
boot * up => start
kick/kicked * off => start run trigger
set/setting * up => create configure
stand/stood a/an/new => create
tear/tore/torn * down => delete destroy
take/took/taken the/my/our/this/that * down => stop delete
take/took/taken down the/my/our/this/that => stop delete
take/took/taken * offline => stop disable
turn/switch * on => enable
turn/switch * off => disable
bring/brought * online => start enable
roll/rolled * back => rollback revert restore
roll/rolled * out => deploy release
push/pushed * to prod/production/live => deploy
go/goes/went live => deploy publish
cut/cutting a/an/the/new release/tag/version => create release
cut/cutting a/an/the/new branch => create branch
bump * version/versions/dependency/dependencies => update upgrade version
open/opened a/an/new ticket/issue/bug/incident/case/pr/mr => create
open/opened a/an/new pull/merge request => create
file/filed a/an/new ticket/issue/bug/incident/report/complaint => create
raise/raised a/an/new ticket/issue/bug/incident/pr/mr => create
log/logged a/an/new ticket/issue/bug/incident/call/meeting/note => create
log/logged * hours/time => time entry worklog
look/looked * up => search get
dig/dug * up => search find
pull/pulled * up => show get
grep => search
grab/grabbed => get download
ping/pinged me/him/her/them/team/everyone/everybody => send message notify
heads up => notify message
scanned => ocr
pull/pulled * out of => extract
sign/signed * up => register create account
sign/signed in => login authenticate
log/logged in => login authenticate
sign/signed out => logout
log/logged out => logout
opt/opted out => unsubscribe
opt/opted in => subscribe
sign/signed off => approve
thumbs up => reaction emoji
check/checked * out * branch => checkout switch branch
back * up => backup snapshot
back * out => revert
undo => revert reset
clean * up => clean delete
free * up => clean delete
get/got * rid of => delete remove
throw/threw/thrown * away/out => delete remove
blow/blew/blown * away => delete
trash => delete
nuke => delete
kill/killed * process/processes/job/jobs/pod/pods/task/tasks/session/sessions/query/queries/container/containers/run/build => stop terminate
bounce the/my server/service/pod/app => restart
hook/hooked * up => connect integrate
hook/hooked * into => connect integrate
hand/handed * off/over => assign transfer
reach/reached out => contact
get/got back to => reply
write/wrote back => reply
shoot/shot * email/message/note/text/mail/dm => send
drop/dropped * message/note/line/email/comment => send
fire/fired * off => send
blast * out => send broadcast
leave/left a/an comment/note/review/feedback => add comment
jot/jotted * down => note create
note * down => note create
write/wrote * down => note create
take/took a/an note => note create
read/reading * out loud => text to speech audio
read/reading * aloud => text to speech audio
say * out loud => text to speech audio
put together => create
whip/whipped * up => create
draw/drew * up => create
throw/threw * together => create
dump => export
pencil/pencilled/penciled * in => schedule event
call/called * off => cancel
push/pushed * back => reschedule update
put * on hold => pause
silence/snooze => mute
request/requested changes => review
remember => memory save
post/posted * in/to/on * channel/channels/chat/group/thread => send message
send/sent/sending * message/messages => post
cpu/memory/disk/ram usage => metrics
slow/slower/slowest/sluggish => performance
fail/fails/failed/failing => failure error
every/each minute/hour/day/night/morning/evening => schedule recurring cron
every/each week/month/monday/tuesday/wednesday/thursday/friday/saturday/sunday => recurring
block * off => event
mark/marked * done/complete/completed/finished/resolved => complete status
check/checked * off => complete
tick/ticked * off => complete
close/closed * out => close complete
to done => status transition
standup/standups/stand-up => meeting event
retro/retrospective => meeting event
one on one => meeting event
a/an call with => meeting event
video/conference/zoom call => meeting online
out of office => automatic reply settings
ooo => automatic reply settings
on my plate => my tasks assigned
to-do/todo/todos => task
crash/crashes/crashed/crashing => error exception
how much space => size disk usage
pull/pulled * latest changes/commits/code => git pull
pull/pulled * from origin/upstream/remote => git pull
push/pushed * to origin/upstream/remote => git push
charge/charged * customer/card/client => payment create
bill/billed * customer/client => invoice create
pay/paid out => payout
inbox => mail messages
free time/slot/slots => availability free busy
am i free => availability free busy
are we/they/you free => availability free busy
is everyone/everybody free => availability free busy
move/moved/reschedule * meeting/call/event/appointment/standup => update
rsvp => respond accept
lgtm => approve
tag/tagged * release/version => create release tag
what/what s changed => diff changes
escalate/escalated => priority update
zip * up => compress archive
unzip/unzipped => extract archive
open/opened the/this/my/that * file/files/document/doc/pdf/spreadsheet => read
what s in => list contents
what s running => list running
shell/ssh/exec * into => exec
get/got a shell => exec
is/are the/my/our site/sites/website/server/servers/service/services/app/api/database/db down => status health outage
google/googled for => web search
dictate/dictated => speech to text
draw/drew * picture/image/illustration => generate image
draw/drew * diagram/chart/graph/flowchart => generate diagram
plot/plotted * data/numbers/sales/trend/trends => chart
keep * in mind => memory save
feishu => lark
outlook/onedrive/sharepoint/onenote => microsoft 365
microsoft/ms teams => microsoft 365
on/in/via/over teams => microsoft 365
gcal => google calendar
taking up space => size disk usage
run/ran/running/execute a/an select/join/insert/upsert => sql query
save/saved * attachment/attachments => download
uncommitted/unstaged/unsaved/local changes/edits => working tree changes
put/set/putting/setting * * aside => stash save
throw/threw/thrown/toss/tossed away/out * * changes/edits => discard reset
fail/fails/failing/failed/pass/passes/passing * randomly/intermittently/sometimes => flaky
randomly/intermittently/sometimes fail/fails/failing/failed => flaky
intermittent/random/sporadic failure/failures/failing => flaky
agenda => calendar events
monthly/yearly/annual plan/plans/membership/memberships => subscription
stop/end/quit * * subscription/subscriptions/membership/memberships => cancel
stop/end/quit * * monthly/yearly/annual plan/plans/membership/subscription => cancel
fight/contest/challenge/dispute * chargeback/chargebacks/dispute/disputes => dispute evidence update
to * replica/replicas => scale
real user/users => rum
page/pages load/loads/loading => page performance
load/loading time/times/speed => page performance
checkout link/page => payment link
near/nearby home/me/here/us/my/our/work => nearby local places
near/nearby the office/house/apartment/flat => nearby local places
give/gave * a/the link => share link
can t/cannot/couldn t start until => dependency
blocked by/on another/other/task/issue/ticket/story => dependency
depends/depend on another/other/task/issue/ticket/story => dependency
log/logged the/this/that/our/my * bug/ticket/issue/defect => create
azure boards => azure devops work item
auto reply/replies/reply/responder => automatic reply settings
autoreply/autoresponder/auto-reply => automatic reply settings
vacation responder/reply => automatic reply settings
automatically/auto move/moves/sort/sorts/file/files/label/labels/archive/forward => filter rule
leave/pto/vacation request/requests => leave approval
time off request/requests => leave approval
new hire/hires/starter/starters/joiner/joiners/employee/employees => user member
what * people/everyone/everybody/they * said/talked/discussed => messages history
catch/caught * up on => messages history read
`

// phrase is one line of the table.
type phrase struct {
	slots [][]string // the forms of each word; nil: a gap
	words string     // what is added after it
}

// phrases are the table's lines by the forms of their first word.
var phrases = sync.OnceValue(func() map[string][]phrase { return loadPhrases(phraseTable) })

func loadPhrases(table string) map[string][]phrase {
	out := map[string][]phrase{}
	for _, line := range strings.Split(table, "\n") {
		left, words, ok := strings.Cut(line, "=>")
		if !ok {
			continue
		}
		p := phrase{words: strings.TrimSpace(words)}
		for _, slot := range strings.Fields(left) {
			if slot == "*" {
				p.slots = append(p.slots, nil)
				continue
			}
			p.slots = append(p.slots, strings.Split(slot, "/"))
		}
		p.slots[0] = inflected(p.slots[0])
		for _, f := range p.slots[0] {
			out[f] = append(out[f], p)
		}
	}
	return out
}

// inflected returns forms with their regular inflections: -s, -es, -ed,
// -ing, a final e dropped before -ing, a final consonant doubled; each
// form once.
func inflected(forms []string) []string {
	out := append([]string(nil), forms...)
	for _, f := range forms {
		out = append(out, f+"s", f+"es", f+"ed", f+"ing")
		if base, ok := strings.CutSuffix(f, "e"); ok {
			out = append(out, base+"ing", f+"d")
		}
		if n := len(f); n >= 3 && !isVowel(f[n-1]) && isVowel(f[n-2]) && !isVowel(f[n-3]) {
			out = append(out, f+f[n-1:]+"ing", f+f[n-1:]+"ed")
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

func isVowel(c byte) bool { return strings.IndexByte("aeiou", c) >= 0 }

// maxGap is the words a gap ("*") of a phrase stands for at most.
const maxGap = 2

// WithPhraseExpansions returns text with the words of each phrase of the
// table it holds added after the phrase, or text itself when it holds
// none.
func WithPhraseExpansions(text string) string {
	var b strings.Builder
	last := 0
	forEachPhrase(text, func(span []word, words string) {
		if end := span[len(span)-1].end; end >= last {
			b.WriteString(text[last:end] + " " + words)
			last = end
		}
	})
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// PhraseWords returns the phrases of the table text holds, each as its
// words written in text one space apart (tear it down), with its own words
// and the words the table adds, in order.
func PhraseWords(text string) []GlossedWord {
	var out []GlossedWord
	forEachPhrase(text, func(span []word, words string) {
		written := make([]string, len(span))
		for i, w := range span {
			written[i] = text[w.start:w.end]
		}
		phrase := strings.Join(written, " ")
		out = append(out, GlossedWord{phrase, phrase + " " + words})
	})
	return out
}

// WithoutPhrases returns text with each phrase of the table replaced by a
// space, or text itself when it holds none.
func WithoutPhrases(text string) string {
	var b strings.Builder
	last := 0
	forEachPhrase(text, func(span []word, _ string) {
		start, end := span[0].start, span[len(span)-1].end
		b.WriteString(text[last:max(last, start)] + " ")
		last = max(last, end)
	})
	if last == 0 {
		return text
	}
	b.WriteString(text[last:])
	return b.String()
}

// forEachPhrase calls f with the words of each phrase of the table in
// text (gaps included), in order of their first words, and the words the
// table adds.
func forEachPhrase(text string, f func(span []word, words string)) {
	words := lowerWords(text)
	table := phrases()
	for i := range words {
		for _, p := range table[words[i].w] {
			if end, ok := p.match(words, i+1, 1); ok {
				f(words[i:end], p.words)
			}
		}
	}
}

// match reports whether the slots of p from slot s on match words from i
// on, and the index past the last word matched.
func (p phrase) match(words []word, i, s int) (int, bool) {
	if s == len(p.slots) {
		return i, true
	}
	if p.slots[s] == nil {
		for skip := 0; skip <= maxGap && i+skip <= len(words); skip++ {
			if end, ok := p.match(words, i+skip, s+1); ok {
				return end, true
			}
		}
		return 0, false
	}
	if i >= len(words) {
		return 0, false
	}
	for _, f := range p.slots[s] {
		if words[i].w == f {
			return p.match(words, i+1, s+1)
		}
	}
	return 0, false
}

// word is a run of letters and digits of a text, lower-cased, and where
// it starts and ends.
type word struct {
	w          string
	start, end int
}

// lowerWords splits text into runs of letters and digits; a hyphen
// between letters joins (stand-up, to-do).
func lowerWords(text string) []word {
	var out []word
	start := -1
	for i, r := range text + " " {
		inWord := unicode.IsLetter(r) || unicode.IsDigit(r) || (r == '-' && start >= 0 && i+1 < len(text) && isLetterByte(text[i+1]))
		switch {
		case inWord && start < 0:
			start = i
		case !inWord && start >= 0:
			out = append(out, word{strings.ToLower(text[start:i]), start, i})
			start = -1
		}
	}
	return out
}

func isLetterByte(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
