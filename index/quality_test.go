package index

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/mcpsearch/mcpsearch/ext"
	"github.com/mcpsearch/mcpsearch/index/internal/retrieval"
	"github.com/mcpsearch/mcpsearch/index/internal/text"
)

// TestRetrievalTables checks the behaviours the ranking is built for, each
// on real tools of the default catalog.
func TestRetrievalTables(t *testing.T) {
	t.Parallel()
	x := defaultIndex(t)
	for _, test := range []struct {
		about, query string
		top          int
		want         func(name, description string) bool
	}{
		{"synonym: remove means delete", "remove a file", 3, func(n, d string) bool {
			return strings.Contains(n, "delete") && strings.Contains(strings.ToLower(n+d), "file")
		}},
		{"typo: kubernets", "kubernets pods", 3, func(n, _ string) bool {
			return strings.HasPrefix(n, "kubernetes") && strings.Contains(n, "pods_list")
		}},
		{"typo: two edits in a long word", "screnshoot of the page", 3, func(n, _ string) bool { return strings.Contains(n, "screenshot") }},
		{"exact name first", "browser_take_screenshot", 1, func(n, _ string) bool { return n == "playwright__browser_take_screenshot" }},
		{"exact canonical name first", "mcp-github__merge_pull_request", 1, func(n, _ string) bool { return n == "mcp-github__merge_pull_request" }},
		{"abbreviation: k8s", "k8s pods", 3, func(n, _ string) bool { return strings.HasPrefix(n, "kubernetes") }},
		{"abbreviation: pr", "open a pr", 3, func(n, _ string) bool {
			return strings.Contains(strings.ToLower(n), "pullrequest") || strings.Contains(n, "pull_request")
		}},
		{"acronym in a camelCase name", "take app screenshot", 3, func(n, _ string) bool { return n == "browserstack__takeAppScreenshot" }},
		// issue 16's table: examples, not a measurement (the everyday set is)
		{"schedule a meeting: an event is created", "schedule a meeting", 3, func(n, _ string) bool {
			return slices.Contains([]string{"google-calendar__create-event", "ms-365__create-online-meeting", "ms-365__find-meeting-times", "ms-365__create-calendar-event"}, n)
		}},
		{"deploy: install or apply", "deploy to kubernetes", 3, func(n, _ string) bool {
			return strings.HasSuffix(n, "kubectl_apply") || strings.HasSuffix(n, "helm_install")
		}},
		{"German: erstelle", "erstelle ein GitHub Issue", 3, func(n, _ string) bool { return n == "mcp-github__create_issue" }},
		{"typos: a transposition, a short word", "craete a pul request", 3, func(n, _ string) bool { return strings.HasSuffix(n, "__create_pull_request") }},
		{"a typo its stem hides: delte (delt)", "delte the branch", 3, func(n, _ string) bool { return strings.HasSuffix(n, "delete_branch") }},
		{"a ligature pasted from a PDF", "read a ﬁle", 3, func(n, _ string) bool {
			return n == "mcp-filesystem__read_file" || n == "mcp-filesystem__read_text_file"
		}},
		{"two words run together", "draw a barchart of monthly sales", 1, func(n, _ string) bool { return n == "antv-chart__generate_bar_chart" }},
		{"Japanese: kanji verbs, particles dropped", "ファイルを削除して", 3, func(n, _ string) bool {
			return strings.Contains(strings.ToLower(n), "delete") && strings.Contains(strings.ToLower(n), "file")
		}},
		{"German: die and im dropped in a German request", "Zeig mir die offenen Issues im Repo", 1, func(n, _ string) bool { return n == "mcp-github__list_issues" }},
		{"schedule creates", "schedule a calendar event", 1, func(n, _ string) bool { return strings.Contains(n, "create") }},
		{"the server a query names, its own tool first", "send a slack message", 1, func(n, _ string) bool { return strings.HasPrefix(n, "mcp-slack__") }},
	} {
		page, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: test.query, Limit: test.top})
		if err != nil {
			t.Fatalf("%s: %v", test.about, err)
		}
		found := false
		var got []string
		for _, h := range page.Items {
			var obj hitInfo
			decode(t, h.Object, &obj)
			got = append(got, obj.Name)
			found = found || test.want(obj.Name, obj.Description)
		}
		if !found {
			t.Errorf("%s: %q gave %v", test.about, test.query, got)
		}
	}
}

func TestSiblingActions(t *testing.T) {
	t.Parallel()
	x := mustBuild(t, "testdata/siblings")
	for _, test := range []struct{ query, above, below string }{
		{"show me the keys in vault X", "vault__list_keys", "vault__get_key"},
		{"show me the key named signing in vault X", "vault__get_key", "vault__list_keys"},
		{"remove the signing key from vault X", "vault__delete_key", "vault__get_key"},
		{"add a key to vault X", "vault__create_key", "vault__get_key"},
		{"change the value of secret db in vault X", "vault__set_secret", "vault__get_secret"},
		{"read secret db in vault X", "vault__get_secret", "vault__set_secret"},
	} {
		got := names(searchHits(t, x, ext.KindTool, test.query, 10, ext.Filter{}))
		a, b := slices.Index(got, test.above), slices.Index(got, test.below)
		if a < 0 || (b >= 0 && a > b) {
			t.Errorf("%q: got %v, want %s above %s", test.query, got, test.above, test.below)
		}
	}
}

// TestNothingFits: a query about something no item offers gets an empty
// page with a hint, not five weak matches.
func TestNothingFits(t *testing.T) {
	t.Parallel()
	x := defaultIndex(t)
	// ("order a pizza" was one until the written requests: Brave's local
	// search, asked to "find pizza places near me" and whose parameter's
	// example is "pizza near Central Park", now comes first, a near miss
	// without a hint; see index/README.md, technique log.)
	for _, q := range []string{"book a table for two at an italian restaurant", "knit a wool scarf for my grandmother", "soothe a sunburn", "/.*/"} {
		page, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: q, Limit: 5})
		if err != nil {
			t.Fatal(err)
		}
		if len(page.Items) != 0 || page.Hint == "" {
			t.Errorf("%q: got %d items and hint %q, want none and a hint", q, len(page.Items), page.Hint)
		}
	}
	// "book a flight to Lisbon" got no items until the phrases and
	// synonyms fitted to the fresh set's dev misses were quarantined and
	// the fit model retrained without them (issue 34): Gmail's written
	// request about the receipts of a flight to Lisbon now keeps it a
	// near miss. Its hint must still name what the best match lacks, the
	// flight no tool is named for, and not the city, an argument value
	// (missing-hints, issue 36).
	page, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: "book a flight to Lisbon", Limit: 5})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) > 0 && (!strings.Contains(page.Hint, "flight") || strings.Contains(page.Hint, "Lisbon")) {
		t.Errorf("book a flight to Lisbon: %d items and hint %q, want none or a hint naming flight, not Lisbon", len(page.Items), page.Hint)
	}
	// A query in another language or script is searched, not refused.
	for _, q := range []string{"ウェブページのスクリーンショット", "créer une merge request", "截图"} {
		if _, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: q, Limit: 5}); err != nil {
			t.Errorf("%q: %v", q, err)
		}
	}
}

// TestWordNetBridgesWords: a tool that says "buy" is found for "purchase",
// through the WordNet synonyms indexed beside its description.
func TestWordNetBridgesWords(t *testing.T) {
	t.Parallel()
	if related := text.Expansion("buy"); !slices.Contains(strings.Fields(related), "purchase") {
		t.Fatalf("the embedded WordNet table has no buy → purchase: %q", related)
	}
	x := mustBuild(t, "testdata/shop")
	// Only "purchase" can match: the tools say buy, put and follow.
	got := names(searchHits(t, x, ext.KindTool, "please help me purchase something nice for my family this weekend", 3, ext.Filter{}))
	if len(got) == 0 || got[0] != "shop__checkout" {
		t.Errorf("got %v, want shop__checkout first", got)
	}
}

// TestCJKQueries: Chinese text is indexed and searched as bigrams.
func TestCJKQueries(t *testing.T) {
	t.Parallel()
	x := mustBuild(t, "testdata/cjk")
	for q, want := range map[string]string{"网页截图": "cn__page_capture", "必应搜索关键词": "cn__web_search", "火车票": "cn__train_tickets"} {
		got := names(searchHits(t, x, ext.KindTool, q, 3, ext.Filter{}))
		if len(got) == 0 || got[0] != want {
			t.Errorf("%q: got %v, want %s first", q, got, want)
		}
	}
}

// TestChineseGlosses: English queries find tools described in Chinese
// only, and Chinese queries (simplified or traditional) English tools,
// through the CC-CEDICT glosses (internal/text/gloss.go).
func TestChineseGlosses(t *testing.T) {
	t.Parallel()
	x := mustBuild(t, "testdata/cjk")
	for _, test := range []struct {
		query, want string
		top         int
	}{
		{"shopping deals and product recommendations", "hub__get-smzdm-rank", 1},
		{"popular movies and books right now", "hub__get-douban-rank", 1},
		{"weather forecast for a city", "hub__tianqi", 2},
		{"天气预报", "en__forecast", 2},
		{"天氣預報", "en__forecast", 2}, // traditional characters fold to simplified
		{"股票", "en__stock_quote", 1},
	} {
		got := names(searchHits(t, x, ext.KindTool, test.query, test.top, ext.Filter{}))
		if !slices.Contains(got, test.want) {
			t.Errorf("%q: got %v, want %s in the first %d", test.query, got, test.want, test.top)
		}
	}
}

// TestFilePathsInQueries: a file path in a query stands for a file of its
// type, not for the words of its directories (internal/text/paths.go).
func TestFilePathsInQueries(t *testing.T) {
	t.Parallel()
	x := mustBuild(t, "testdata/files")
	for _, test := range []struct {
		query, want string
		top         int
	}{
		{"summarize the release notes and save them to /root/markdown/notes.md", "files__write_file", 3},
		{"save the summary in /root/markdown/summary.md", "files__write_file", 1},
		{`read C:\Users\me\Documents\todo.txt`, "files__read_file", 1},
	} {
		got := names(searchHits(t, x, ext.KindTool, test.query, test.top, ext.Filter{}))
		if !slices.Contains(got, test.want) {
			t.Errorf("%q: got %v, want %s in the first %d", test.query, got, test.want, test.top)
		}
	}
}

// chineseQueries are Chinese requests and their English translations, and
// Chinese requests no tool of the default catalog answers (translations of
// the eval's negatives).
var chineseQueries = struct {
	pairs     [][2]string
	negatives []string
}{
	pairs: [][2]string{
		{"翻译这段文字", "translate this text"},
		{"截图当前页面", "take a screenshot of the current page"},
		{"删除文件", "delete a file"},
		{"列出所有的 kubernetes pods", "list all kubernetes pods"},
		{"创建一个新的代码仓库", "create a new code repository"},
		{"发送一封电子邮件", "send an email"},
		{"合并拉取请求", "merge a pull request"},
		{"查看我的日历事件", "show my calendar events"},
		{"运行 SQL 查询", "run a SQL query"},
		{"搜索网页", "search the web"},
		{"创建一个 Jira 问题", "create a Jira issue"},
		{"列出所有的 S3 存储桶", "list all S3 buckets"},
		{"部署应用", "deploy an application"},
		{"停止虚拟机", "stop a virtual machine"},
		{"读取文件内容", "read the contents of a file"},
		{"打开网页", "open a web page"},
		{"点击按钮", "click a button"},
		{"查询日志", "query the logs"},
		{"创建表格", "create a spreadsheet"},
		{"发送消息到频道", "send a message to a channel"},
	},
	negatives: strings.Fields(`订一个披萨 给奶奶织一条羊毛围巾 怎么打领结 从收容所领养一只小狗
		推荐一款配牛排的红酒 一根香蕉有多少卡路里 修理自行车刹车的异响 给花园里的番茄浇水 带狗在小区里散步
		教我弹尤克里里 把客厅的墙刷成米色 预约周六理发 磨厨房的刀 找一个周五晚上的保姆 清理屋顶的排水沟
		给金鱼喂食 租一套婚礼穿的燕尾服 熨我的衬衫 给钢琴调音 给猫梳毛 换汽车的爆胎 学折纸鹤 雕刻万圣节南瓜
		擦亮皮靴 疏通浴室水槽 组装宜家衣柜 修剪玫瑰丛 教鹦鹉说话 叠床单 在窗台上种罗勒`),
}

// TestChineseQueriesOnDefaultCatalog: a Chinese request finds, in its
// first 3, the tool its English translation finds first, for at least 13
// of the 20 pairs (16 when written; 9 without the reviewed software senses
// of the gloss table; 15 until the fit model was retrained without the
// phrases and synonyms fitted to the fresh set's dev misses, issue 34,
// which empties four of them), and at least 21 of the 30 Chinese
// negatives get no items (23 when written). Below those the glosses or the
// no-match test have regressed.
func TestChineseQueriesOnDefaultCatalog(t *testing.T) {
	t.Parallel()
	x := defaultIndex(t)
	agree := 0
	for _, p := range chineseQueries.pairs {
		en := names(searchHits(t, x, ext.KindTool, p[1], 1, ext.Filter{}))
		zh := names(searchHits(t, x, ext.KindTool, p[0], 3, ext.Filter{}))
		if len(en) > 0 && slices.Contains(zh, en[0]) {
			agree++
		} else {
			t.Logf("%q finds %v, its translation %q %v", p[0], zh, p[1], en)
		}
	}
	empty := 0
	for _, q := range chineseQueries.negatives {
		if got := names(searchHits(t, x, ext.KindTool, q, 3, ext.Filter{})); len(got) == 0 {
			empty++
		} else {
			t.Logf("negative %q finds %v", q, got)
		}
	}
	if agree < 13 || empty < 21 {
		t.Errorf("%d of %d pairs agree (want ≥ 13), %d of %d negatives find nothing (want ≥ 21)",
			agree, len(chineseQueries.pairs), empty, len(chineseQueries.negatives))
	}
}

// TestHintInCallersWords: the no-match hint names what the best match
// lacks in the caller's own words, never their stems.
func TestHintInCallersWords(t *testing.T) {
	t.Parallel()
	x := defaultIndex(t)
	page, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: "book flights to Paris", Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) > 0 || !strings.Contains(page.Hint, "Paris") || !strings.Contains(page.Hint, "flights") {
		t.Errorf("got %d items, hint %q; want none and a hint naming Paris and flights", len(page.Items), page.Hint)
	}
	// a dotted word is one word of the caller's, named once
	page, err = x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: "knit the scarf.pattern", Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if strings.Count(page.Hint, "scarf.pattern") != 1 {
		t.Errorf("hint %q: want scarf.pattern named once", page.Hint)
	}
	// a bare file name is a file: no tool is expected to hold its name
	page, err = x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: "wirte the notes to notes.txt", Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if len(page.Items) == 0 {
		t.Errorf("write to a bare file name: no items, hint %q", page.Hint)
	}
	// a word that follows an elided French word (d’) is named as written
	// ("commander d’Hamburgers", the example before the fit model, now
	// keeps desktop-commander's items: "commander" is its name)
	page, err = x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: "acheter d’Oranges au marché", Limit: 3})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(page.Hint, "Oranges") {
		t.Errorf("hint %q: want Oranges named, as written", page.Hint)
	}
}

// TestNoWordRead: a Japanese or Chinese request none of whose words the
// gloss tables know finds nothing (its items would hold pairs of its
// characters only); one with a known word, or with product codes in
// Latin letters (which weigh nothing in the no-match test), keeps its
// items.
func TestNoWordRead(t *testing.T) {
	t.Parallel()
	x := defaultIndex(t)
	for q, wantItems := range map[string]bool{
		"植木に水をやって":   false, // water the potted plants
		"犬の散歩に行って":   false, // walk the dog
		"ファイルを削除して":  true,  // delete the file: ファイル and 削除 are known
		"创建一个新的代码仓库": true,  // create a new code repository
		"s3":         true,
		"S3について":     true, // about S3: a product code in Latin letters, as "s3" alone
		"m4aをmp3に":   true, // m4a to mp3
	} {
		page, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: q, Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		if got := len(page.Items) > 0; got != wantItems {
			t.Errorf("%q: %d items, hint %q; want items: %v", q, len(page.Items), page.Hint, wantItems)
		}
		if !wantItems && page.Hint != retrieval.NoWordRead {
			t.Errorf("%q: hint %q, want %q", q, page.Hint, retrieval.NoWordRead)
		}
	}
}

// TestNearMissHint: a query whose best item lacks its weightiest word
// keeps its items and says so in the hint, in the caller's words; a query
// its best item fits gets no hint.
func TestNearMissHint(t *testing.T) {
	t.Parallel()
	x := defaultIndex(t)
	for q, want := range map[string]string{
		"read a file from s3":                                    "the best match lacks s3",
		"create a pull request on github":                        "",
		"list the files in my project folder":                    "",
		"draft an email to the landlord about the broken heater": "",
	} {
		page, err := x.Search(context.Background(), ext.Query{Kind: ext.KindTool, Text: q, Limit: 3})
		if err != nil {
			t.Fatal(err)
		}
		if page.Hint != want {
			t.Errorf("%q: hint %q, want %q (%d items)", q, page.Hint, want, len(page.Items))
		}
	}
}
