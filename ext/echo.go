package ext

import (
	"fmt"
	"strconv"
	"unicode/utf8"
)

// MaxEchoBytes bounds what an answer repeats of a caller's input (a member
// name, a method, a server or annotation name): an error or a hint never
// grows with what the request holds.
const MaxEchoBytes = 64

// QuoteShort quotes s as strconv.Quote does, cut to MaxEchoBytes bytes at
// a character boundary, with its length said when cut.
func QuoteShort(s string) string {
	if len(s) <= MaxEchoBytes {
		return strconv.Quote(s)
	}
	cut := MaxEchoBytes
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return fmt.Sprintf("%s… (%d bytes)", strconv.Quote(s[:cut]), len(s))
}

// Edits is the number of edits between a and b, in characters:
// insertions, deletions, substitutions and swaps of neighbours (opne →
// open is one). It takes time in the product of their lengths: callers
// compare only names of bounded length.
func Edits(a, b string) int {
	x, y := []rune(a), []rune(b)
	before, prev, cur := make([]int, len(y)+1), make([]int, len(y)+1), make([]int, len(y)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(x); i++ {
		cur[0] = i
		for j := 1; j <= len(y); j++ {
			sub := prev[j-1]
			if x[i-1] != y[j-1] {
				sub++
			}
			cur[j] = min(sub, prev[j]+1, cur[j-1]+1)
			if i > 1 && j > 1 && x[i-1] == y[j-2] && x[i-2] == y[j-1] {
				cur[j] = min(cur[j], before[j-2]+1)
			}
		}
		before, prev, cur = prev, cur, before
	}
	return prev[len(y)]
}
