package cedict

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

func entry(trad, simp, pinyin string, english ...string) Entry {
	return Entry{Traditional: trad, Simplified: simp, Pinyin: pinyin, English: english}
}

func TestDistil(t *testing.T) {
	entries := []Entry{
		entry("新聞", "新闻", "xin1 wen2", "news", "CL:條|条[tiao2],個|个[ge4]"),
		entry("獲取", "获取", "huo4 qu3", "to obtain; to get; to acquire; to gain"),
		entry("熱", "热", "re4", "to warm up; to heat up", "hot (of weather)", "heat"),
		entry("王", "王", "Wang2", "surname Wang"),
		entry("王", "王", "wang2", "king or monarch", "best or strongest of its type"),
		entry("北京", "北京", "Bei3 jing1", "Beijing, capital of the People's Republic of China"),
		entry("聯合國安理會", "联合国安理会", "Lian2 he2 guo2 An1 li3 hui4", "UN security council"),
		entry("安理會", "安理会", "An1 li3 hui4", "UN Security Council"),
		entry("的", "的", "de5", "of; ~'s (possessive particle)"),
		entry("的", "的", "di1", "(coll.) taxi"),
		entry("的士", "的士", "di1 shi4", "taxi (loanword)"),
		entry("傢", "家", "jia1", "variant of 家[jia1]"),
		entry("3D打印", "3D打印", "san1 D da3 yin4", "to 3D print"),
		entry("翻譯", "翻译", "fan1 yi4", "to translate; to interpret", "translator; interpreter"),
		entry("文件", "文件", "wen2 jian4", "CL:份[fen4]", "document", "file"),
	}
	got := Distil(entries)
	for head, want := range map[string][]string{
		"新闻": {"news"},                      // a measure-word sense gives nothing
		"获取": {"get", "retrieve", "obtain"}, // software senses first, "to" dropped, MaxWords
		"翻译": {"translate", "interpret", "translator"},
		"热":  {"warm"},                         // one character: one word of its first sense
		"王":  {"king"},                         // the common reading before the surname
		"北京": {"beijing", "capital", "people"}, // a short proper noun is kept
		"的士": {"taxi"},
		"文件": {"file", "document"}, // software senses first, no duplicates
	} {
		if !slices.Equal(got[head], want) {
			t.Errorf("%s: got %v, want %v", head, got[head], want)
		}
	}
	for _, head := range []string{"联合国安理会", "安理会", "的", "家", "3D打印", "新聞"} {
		if w, ok := got[head]; ok {
			t.Errorf("%s: got %v, want no entry", head, w)
		}
	}
}

func TestPlainWords(t *testing.T) {
	for sense, want := range map[string]string{
		"to look up (a word in a dictionary) [literary]": "look",
		"(bound form) electric; electricity":             "electric electricity",
		"see 五常市[Wu3 chang2 Shi4]":                       "",
		"old variant of 家[jia1]":                         "",
		"abbr. for 北京大學|北京大学[Bei3 jing1 Da4 xue2]":       "",
		"software engineer's guide":                      "software engineer guide",
	} {
		if got := strings.Join(plainWords(sense), " "); got != want {
			t.Errorf("plainWords(%q) = %q, want %q", sense, got, want)
		}
	}
}

func TestTraditionalFolding(t *testing.T) {
	f := TraditionalFolding([]Entry{
		entry("新聞", "新闻", "xin1 wen2", "news"),
		entry("聞名", "闻名", "wen2 ming2", "famous"),
		entry("餘", "余", "yu2", "extra"),
		entry("餘下", "余下", "yu2 xia4", "remaining"),
		entry("餘", "馀", "yu2", "variant"),
		entry("3D打印", "3D打印", "san1 D da3 yin4", "to 3D print"),
		entry("電子詞典", "电子词", "dian4 zi3 ci2", "length differs: skipped"),
	})
	want := Folding{'聞': '闻', '餘': '余'}
	if len(f) != len(want) || f['聞'] != '闻' || f['餘'] != '余' {
		t.Errorf("got %q, want %q", f, want)
	}
}

func TestWriteAndRead(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "cedict.json")
	if err := os.WriteFile(src, []byte(`[{"traditional":"新聞","simplified":"新闻","pinyin":"xin1 wen2","english":["news","press"]},`+
		`{"traditional":"天氣","simplified":"天气","pinyin":"tian1 qi4","english":["weather"]}]`), 0o644); err != nil {
		t.Fatal(err)
	}
	entries, err := Read(src)
	if err != nil {
		t.Fatal(err)
	}
	out := filepath.Join(dir, "zhgloss.txt")
	if len(entries) != 2 || entries[1].Simplified != "天气" || !slices.Equal(entries[0].English, []string{"news", "press"}) {
		t.Fatalf("read %+v", entries)
	}
	if err := (Table{"新闻": {"news", "press"}, "天气": {"weather"}}).Write(out, "line one\nline two"); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(out)
	if want := "# line one\n# line two\n天气\tweather\n新闻\tnews press\n"; string(data) != want {
		t.Errorf("table:\n%s\nwant:\n%s", data, want)
	}
	fold := filepath.Join(dir, "zhtrad.txt")
	if err := TraditionalFolding(entries).Write(fold); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(fold)
	if want := "氣气聞闻\n"; string(data) != want { // sorted by the traditional character
		t.Errorf("folding %q, want %q", data, want)
	}
}

func TestReadErrors(t *testing.T) {
	dir := t.TempDir()
	for name, body := range map[string]string{"empty.json": "[]", "object.json": `{"a":1}`, "broken.json": `[{"traditional":`} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Read(path); err == nil || !strings.Contains(err.Error(), name) {
			t.Errorf("%s: got %v, want an error naming the file", name, err)
		}
	}
	if _, err := Read(filepath.Join(dir, "missing.json")); err == nil {
		t.Error("missing file: no error")
	}
}
