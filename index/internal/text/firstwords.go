package text

// FirstWords returns the start of text that holds its first most words,
// or text itself when it holds no more. Words are counted as the analyser
// reads them, before it does: a run of letters, digits and marks is a
// word, each part of an identifier is one of its own (SplitName:
// getUrlList and get_url_list are three), and so is each Chinese or
// Japanese character. So what a query costs to gloss, split, analyse and
// correct is bounded by its first words whatever their shape: a 4 KB
// identifier of 700 parts is read as far as its 128th, as a query of 128
// words is.
func FirstWords(text string, most int) string {
	runes := make([]rune, 0, len(text))
	offsets := make([]int, 0, len(text))
	for i, r := range text {
		runes, offsets = append(runes, r), append(offsets, i)
	}
	words := 0
	for i := range runes {
		if !wordStart(runes, i) {
			continue
		}
		if words++; words > most {
			return text[:offsets[i]]
		}
	}
	return text
}

// wordStart reports whether a word starts at r[i]: a Chinese or Japanese
// character, a word character after none (but an apostrophe within a word:
// don't is one), or a new part of an identifier (camelBoundary: getURL is
// get|URL).
func wordStart(r []rune, i int) bool {
	switch cur := r[i]; {
	case isHan(cur) || isKana(cur):
		return true
	case !isWordRune(cur):
		return false
	case i == 0:
		return true
	case isApostrophe(r[i-1]):
		return i < 2 || !isWordRune(r[i-2])
	case !isWordRune(r[i-1]):
		return true
	}
	return camelBoundary(r, i)
}

func isApostrophe(r rune) bool { return r == '\'' || r == '’' }
