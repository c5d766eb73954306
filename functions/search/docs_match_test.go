package main

import (
	"encoding/json"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode"
)

// relax turns a doc's JSON into JSON: a bare … becomes "…" (a value or an
// array element) or "…":"…" (an object member), and each → between a
// request and its answer becomes a space, counted.
func relax(s string) (string, int) {
	var b strings.Builder
	var stack []rune
	last, arrows := rune(0), 0
	inString, escaped := false, false
	for _, r := range s {
		if inString {
			b.WriteRune(r)
			switch {
			case escaped:
				escaped = false
			case r == '\\':
				escaped = true
			case r == '"':
				inString, last = false, '"'
			}
			continue
		}
		switch r {
		case '"':
			inString = true
		case '{', '[':
			stack = append(stack, r)
		case '}', ']':
			if len(stack) > 0 {
				stack = stack[:len(stack)-1]
			}
		case '→':
			arrows++
			b.WriteRune(' ')
			continue
		case '…':
			if len(stack) > 0 && stack[len(stack)-1] == '{' && last != ':' {
				b.WriteString(`"…":"…"`)
			} else {
				b.WriteString(`"…"`)
			}
			last = '"'
			continue
		}
		b.WriteRune(r)
		if !unicode.IsSpace(r) {
			last = r
		}
	}
	return b.String(), arrows
}

// decodeAll decodes a stream of JSON values, numbers as json.Number.
func decodeAll(text string) ([]any, error) {
	dec := json.NewDecoder(strings.NewReader(text))
	dec.UseNumber()
	var values []any
	for {
		var v any
		err := dec.Decode(&v)
		if err == io.EOF {
			return values, nil
		}
		if err != nil {
			return nil, fmt.Errorf("not JSON after %d values: %w", len(values), err)
		}
		values = append(values, v)
	}
}

func decodeNumbers(data []byte) (any, error) {
	values, err := decodeAll(string(data))
	if err != nil {
		return nil, err
	}
	if len(values) != 1 {
		return nil, fmt.Errorf("%d JSON values, want 1", len(values))
	}
	return values[0], nil
}

func compact(v any) string {
	data, _ := json.Marshal(v)
	if len(data) > 2000 {
		return string(data[:2000]) + "…"
	}
	return string(data)
}

// matchAnswer compares an answer with the doc's: the whole message when the
// doc shows "jsonrpc", else its result.
func matchAnswer(want, got any) []string {
	if w, ok := want.(map[string]any); ok {
		if _, whole := w["jsonrpc"]; !whole {
			if _, isResult := got.(map[string]any)["result"]; !isResult {
				return []string{"got no result"}
			}
			return matchValue("result", want, path(got, "result"))
		}
	}
	return matchValue("", want, got)
}

// matchValue compares got with want by the rules of the doc comment, and
// describes each difference at its path.
func matchValue(at string, want, got any) []string {
	switch w := want.(type) {
	case string:
		return matchString(at, w, got)
	case json.Number:
		if g, ok := got.(json.Number); ok && numbersMatch(w, g) {
			return nil
		}
	case map[string]any:
		return matchObject(at, w, got)
	case []any:
		return matchArray(at, w, got)
	default: // bool, nil
		if want == got {
			return nil
		}
	}
	return []string{fmt.Sprintf("%s: got %s, want %s", at, compact(got), compact(want))}
}

func matchString(at, want string, got any) []string {
	if want == ellipsis {
		return nil
	}
	if g, ok := got.(string); ok && globMatch(want, g) {
		return nil
	}
	return []string{fmt.Sprintf("%s: got %s, want %q", at, compact(got), want)}
}

// globMatch: each … of want stands for any text.
func globMatch(want, got string) bool {
	parts := strings.Split(want, ellipsis)
	rest, ok := strings.CutPrefix(got, parts[0])
	if !ok {
		return false
	}
	if len(parts) == 1 {
		return rest == ""
	}
	for _, p := range parts[1 : len(parts)-1] {
		i := strings.Index(rest, p)
		if i < 0 {
			return false
		}
		rest = rest[i+len(p):]
	}
	return strings.HasSuffix(rest, parts[len(parts)-1])
}

// numbersMatch: a number shown with decimals matches to those digits,
// another exactly.
func numbersMatch(want, got json.Number) bool {
	w, err1 := want.Float64()
	g, err2 := got.Float64()
	if err1 != nil || err2 != nil {
		return false
	}
	s := strings.ToLower(want.String())
	if !strings.Contains(s, ".") {
		return w == g
	}
	mantissa, exp, _ := strings.Cut(s, "e")
	_, decimals, _ := strings.Cut(mantissa, ".")
	e, _ := strconv.Atoi(exp)
	return math.Abs(w-g) <= 0.5*math.Pow(10, float64(e-len(decimals)))+1e-12
}

func matchObject(at string, want map[string]any, got any) []string {
	g, ok := got.(map[string]any)
	if !ok {
		return []string{fmt.Sprintf("%s: got %s, want an object", at, compact(got))}
	}
	var diffs []string
	for k, wv := range want {
		if k == ellipsis {
			continue
		}
		gv, ok := g[k]
		if !ok {
			diffs = append(diffs, fmt.Sprintf("%s: no member %q", at, k))
			continue
		}
		diffs = append(diffs, matchValue(at+"."+k, wv, gv)...)
	}
	if _, open := want[ellipsis]; !open {
		for k := range g {
			if _, shown := want[k]; !shown {
				diffs = append(diffs, fmt.Sprintf("%s: member %q is not in the doc (add it, or …)", at, k))
			}
		}
	}
	slices.Sort(diffs)
	return diffs
}

func matchArray(at string, want []any, got any) []string {
	g, ok := got.([]any)
	if !ok {
		return []string{fmt.Sprintf("%s: got %s, want an array", at, compact(got))}
	}
	head, tail := want, []any(nil)
	if i := slices.Index(want, any(ellipsis)); i >= 0 {
		head, tail = want[:i], want[i+1:]
	} else if len(g) != len(want) {
		return []string{fmt.Sprintf("%s: got %d elements, want %d", at, len(g), len(want))}
	}
	if len(g) < len(head)+len(tail) {
		return []string{fmt.Sprintf("%s: got %d elements, want at least %d", at, len(g), len(head)+len(tail))}
	}
	var diffs []string
	for i, w := range head {
		diffs = append(diffs, matchValue(fmt.Sprintf("%s[%d]", at, i), w, g[i])...)
	}
	for i, w := range tail {
		j := len(g) - len(tail) + i
		diffs = append(diffs, matchValue(fmt.Sprintf("%s[%d]", at, j), w, g[j])...)
	}
	return diffs
}

// TestDocExampleRules: the comparison follows the rules the docs rely on.
func TestDocExampleRules(t *testing.T) {
	t.Parallel()
	for _, test := range []struct {
		want, got string
		ok        bool
	}{
		{`{"score":1.76}`, `{"score":1.7602}`, true},
		{`{"score":1.76}`, `{"score":1.7702}`, false},
		{`{"score":1.175}`, `{"score":1.7602}`, false},
		{`{"n":10}`, `{"n":10.4}`, false},
		{`{"a":1,…}`, `{"a":1,"b":2}`, true},
		{`{"a":1}`, `{"a":1,"b":2}`, false},
		{`{"a":…}`, `{"a":[1,{"b":2}]}`, true},
		{`{"s":"Take a screenshot…"}`, `{"s":"Take a screenshot of the page"}`, true},
		{`{"s":"Take a photo…"}`, `{"s":"Take a screenshot of the page"}`, false},
		{`{"s":"Take … of the page"}`, `{"s":"Take a screenshot of the page"}`, true},
		{`{"s":"Take … of the book"}`, `{"s":"Take a screenshot of the page"}`, false},
		{`{"s":"Take"}`, `{"s":"Take a screenshot of the page"}`, false},
		{`[1,…]`, `[1,2,3]`, true},
		{`[…,3]`, `[1,2,3]`, true},
		{`[1,…]`, `[2,3]`, false},
		{`[1]`, `[1,2]`, false},
		{`{"t":{…}}`, `{"t":{"x":1}}`, true},
		{`{"t":{…}}`, `{"t":[1]}`, false},
		{`{"b":false}`, `{"b":false}`, true},
		{`{"b":false}`, `{}`, false},
	} {
		wantText, _ := relax(test.want)
		want, err := decodeNumbers([]byte(wantText))
		if err != nil {
			t.Fatalf("%s: %v", test.want, err)
		}
		got, _ := decodeNumbers([]byte(test.got))
		if diffs := matchValue("", want, got); (len(diffs) == 0) != test.ok {
			t.Errorf("doc %s, answer %s: got differences %q, want a match %v", test.want, test.got, diffs, test.ok)
		}
	}
}
