package main

import (
	"errors"
	"math"
	"strconv"
	"strings"
)

// The threshold of MCPSEARCH_LIST_MODE=auto: the characters of tool
// definitions above which tools/list answers the meta tools. It is set in
// characters (MCPSEARCH_META_THRESHOLD_CHARS) or in tokens
// (MCPSEARCH_META_THRESHOLD_TOKENS: a number, or a share of a context
// window, "10%of180000"), which MCPSEARCH_CHARS_PER_TOKEN turns into
// characters (DefaultCharsPerToken if unset). Claude Code's own bar, the
// default, is 10%of180000 at 2.5: 45,000 characters.

// DefaultCharsPerToken turns a threshold in tokens into characters unless
// MCPSEARCH_CHARS_PER_TOKEN says otherwise: the ratio Claude Code assumes.
const DefaultCharsPerToken = 2.5

// metaThreshold is the threshold as the variables set it.
type metaThreshold struct {
	chars         bool    // MCPSEARCH_META_THRESHOLD_CHARS is set
	tokens        float64 // MCPSEARCH_META_THRESHOLD_TOKENS, 0 if unset
	charsPerToken float64 // MCPSEARCH_CHARS_PER_TOKEN, 0 if unset
}

// apply sets c.MetaThresholdChars from a threshold in tokens, refusing
// settings that contradict one another or go unused.
func (t metaThreshold) apply(c *Config) error {
	switch {
	case t.chars && t.tokens > 0:
		return errors.New("MCPSEARCH_META_THRESHOLD_CHARS and MCPSEARCH_META_THRESHOLD_TOKENS are both set: set one")
	case t.charsPerToken > 0 && t.tokens == 0:
		return errors.New("MCPSEARCH_CHARS_PER_TOKEN is set but MCPSEARCH_META_THRESHOLD_TOKENS is not: it converts that threshold only")
	case t.tokens == 0:
		return nil
	}
	perToken := t.charsPerToken
	if perToken == 0 {
		perToken = DefaultCharsPerToken
	}
	chars := math.Round(t.tokens * perToken)
	if chars < 1 || chars > math.MaxInt32 {
		return errors.New("MCPSEARCH_META_THRESHOLD_TOKENS times MCPSEARCH_CHARS_PER_TOKEN must give from 1 to 2147483647 characters")
	}
	c.MetaThresholdChars = int(chars)
	return nil
}

// tokenThreshold reads a number of tokens, or a share of a context
// window ("10%of180000"), into tokens.
func tokenThreshold(v string) (float64, error) {
	percent, window, share := strings.Cut(v, "%of")
	if !share {
		n, err := wholeNumber(v, 1, math.MaxInt32)
		return float64(n), err
	}
	p, err := decimal(percent, 0, 100)
	if err != nil || p == 0 {
		return 0, errRefused
	}
	w, err := wholeNumber(window, 1, math.MaxInt32)
	return p / 100 * float64(w), err
}

// decimal accepts a plain decimal number (digits, at most one point
// between digits) from lo to hi.
func decimal(v string, lo, hi float64) (float64, error) {
	whole, frac, _ := strings.Cut(v, ".")
	plain := whole != "" && strings.Trim(whole, "0123456789") == "" && strings.Trim(frac, "0123456789") == "" &&
		(frac != "" || !strings.Contains(v, "."))
	f, err := strconv.ParseFloat(v, 64)
	if !plain || err != nil || f < lo || f > hi {
		return 0, errRefused
	}
	return f, nil
}
