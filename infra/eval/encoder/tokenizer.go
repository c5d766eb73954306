package encoder

import (
	"unicode/utf8"

	"golang.org/x/text/unicode/norm"
)

// The tokenizer is the one of @energetic-ai/embeddings 0.2.0 (lib/tokenizer.ts,
// itself TF.js's universal-sentence-encoder tokenizer), reproduced with its
// quirks, since the model was run with them:
//
//   - the text is NFKC-normalised, then prefixed with "▁" and each space
//     (U+0020 only) replaced by "▁"; an empty text has no tokens;
//   - the pieces of ids 0–5 (unknown, <s>, </s>, three reserved) never
//     match; of duplicate pieces the last id wins;
//   - at each position every piece that starts there is a candidate; where
//     none does, the position's one character is the unknown id 0 with
//     score 0;
//   - Viterbi keeps, for each end position, the candidate with the highest
//     score + best[start], ties going to the later start, and any
//     candidate replacing a best that is exactly 0 — which includes a
//     position no candidate reached, so paths through such a position win;
//   - the reference's vocabulary has pieces with score null (read as 0, as
//     JavaScript's null + number is) and ":30" with score 30: kept as is;
//   - walking back from the end, each id steps back by its piece's length
//     (a position never reached holds id 0 and steps back one), and runs of
//     the unknown id collapse to one.
//
// Encode needs only the first MaxTokens ids. No piece has "▁" but at its
// start, and "▁" alone is a piece, so every "▁" of the text starts a token
// in every segmentation: the text splits into words that are segmented
// independently, given the running best score. tokenize stops at the word
// that reaches the limit, so its cost is bounded by the longest word.

// MaxInputBytes is how much of a text Encode reads: texts past it are cut
// first. Only a text with a word longer than that could segment
// differently from the reference.
const MaxInputBytes = 16 << 10

// wordStart is SentencePiece's whitespace mark.
const wordStart = '▁'

// unknownID is the vocabulary id of characters no piece starts with.
const unknownID = 0

// reservedIDs is the number of leading vocabulary ids that never match.
const reservedIDs = 6

// tokenizer segments text into vocabulary ids.
type tokenizer struct {
	scores  []float64 // by id
	lengths []int32   // by id: the piece's length in characters
	trie    trie
}

// trie finds the pieces that start a string: node 0 is the root, and
// children are found by (node, character) in one map.
type trie struct {
	children map[uint64]int32
	piece    []int32 // by node: the id of the piece ending there, or -1
}

func trieKey(node int32, r rune) uint64 { return uint64(node)<<32 | uint64(uint32(r)) }

func newTokenizer(pieces []string, scores []float64) *tokenizer {
	tk := &tokenizer{
		scores:  scores,
		lengths: make([]int32, len(pieces)),
		trie:    trie{children: make(map[uint64]int32, 4*len(pieces)), piece: []int32{-1}},
	}
	for id, piece := range pieces {
		tk.lengths[id] = int32(utf8.RuneCountInString(piece))
		if id >= reservedIDs {
			tk.trie.insert(piece, int32(id))
		}
	}
	tk.lengths[unknownID] = 1
	return tk
}

func (t *trie) insert(piece string, id int32) {
	node := int32(0)
	for _, r := range piece {
		child, ok := t.children[trieKey(node, r)]
		if !ok {
			child = int32(len(t.piece))
			t.piece = append(t.piece, -1)
			t.children[trieKey(node, r)] = child
		}
		node = child
	}
	if node != 0 {
		t.piece[node] = id
	}
}

// tokenize appends to ids the first limit token ids of text.
func (tk *tokenizer) tokenize(ids []int32, text string, limit int, s *scratch) []int32 {
	if len(text) > MaxInputBytes {
		text = text[:MaxInputBytes]
	}
	symbols := tk.symbols(text, s)
	if len(symbols) == 0 {
		return ids
	}
	best := grow(&s.best, len(symbols)+1)
	words := grow(&s.words, len(symbols)+1)
	clear(best)
	clear(words)
	start := len(ids)
	for begin := 0; begin < len(symbols) && len(ids)-start < limit; {
		end := begin + 1
		for end < len(symbols) && symbols[end] != wordStart {
			end++
		}
		tk.relaxWord(symbols, begin, end, best, words)
		ids = tk.appendWord(ids, begin, end, words)
		begin = end
	}
	return ids[:min(len(ids), start+limit)]
}

// symbols returns the characters of the reference's processInput(text).
func (tk *tokenizer) symbols(text string, s *scratch) []rune {
	normal := s.text[:0] // norm.Iter, unlike AppendString, does not allocate
	s.normaliser.InitString(norm.NFKC, text)
	for !s.normaliser.Done() {
		normal = append(normal, s.normaliser.Next()...)
	}
	s.text = normal
	symbols := s.symbols[:0]
	if len(normal) > 0 {
		symbols = append(symbols, wordStart)
	}
	for len(normal) > 0 {
		r, size := utf8.DecodeRune(normal)
		normal = normal[size:]
		if r == ' ' {
			r = wordStart
		}
		symbols = append(symbols, r)
	}
	s.symbols = symbols
	return symbols
}

// relaxWord runs the reference's Viterbi step for the candidates that
// start in symbols[begin:end], in order of start.
func (tk *tokenizer) relaxWord(symbols []rune, begin, end int, best []float64, words []int32) {
	for i := begin; i < end; i++ {
		matched := false
		node := int32(0)
		for j := i; j < len(symbols); j++ {
			child, ok := tk.trie.children[trieKey(node, symbols[j])]
			if !ok {
				break
			}
			node = child
			if id := tk.trie.piece[node]; id >= 0 {
				relax(best, words, i, j+1, id, tk.scores[id])
				matched = true
			}
		}
		if !matched {
			relax(best, words, i, i+1, unknownID, 0)
		}
	}
}

func relax(best []float64, words []int32, start, end int, id int32, score float64) {
	if s := score + best[start]; best[end] == 0 || s >= best[end] {
		best[end] = s
		words[end] = id
	}
}

// appendWord walks back from end to begin and appends the word's ids in
// order, runs of unknown ids collapsed.
func (tk *tokenizer) appendWord(ids []int32, begin, end int, words []int32) []int32 {
	first := len(ids)
	for at := end; at > begin; at -= int(tk.lengths[words[at]]) {
		id := words[at]
		if id == unknownID && len(ids) > first && ids[len(ids)-1] == unknownID {
			continue
		}
		ids = append(ids, id)
	}
	reverse(ids[first:])
	return ids
}

func reverse(ids []int32) {
	for i, j := 0, len(ids)-1; i < j; i, j = i+1, j-1 {
		ids[i], ids[j] = ids[j], ids[i]
	}
}
