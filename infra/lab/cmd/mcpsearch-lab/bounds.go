package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/mcpsearch/mcpsearch/infra/cli"
)

// checkFloors fails naming every figure below its floor. floors is
// "key=value,…" with keys of the --json output, nested ones joined by dots
// ("splits.test.recall@5").
func checkFloors(figures map[string]any, floors string) error {
	return checkBounds(figures, floors, "min", "below its floor", func(got, floor float64) bool { return got < floor })
}

// checkCeilings fails naming every figure above its ceiling, given as
// checkFloors takes floors.
func checkCeilings(figures map[string]any, ceilings string) error {
	return checkBounds(figures, ceilings, "max", "above its ceiling", func(got, ceiling float64) bool { return got > ceiling })
}

// checkBounds compares figures with bounds ("key=value,…", the flag
// --flag) and fails naming every figure that fails its bound.
func checkBounds(figures map[string]any, bounds, flag, what string, fails func(got, bound float64) bool) error {
	if bounds == "" {
		return nil
	}
	var out []string
	for _, kv := range strings.Split(bounds, ",") {
		key, value, ok := strings.Cut(strings.TrimSpace(kv), "=")
		bound, err := strconv.ParseFloat(value, 64)
		got, known := figure(figures, key)
		if !ok || err != nil || !known {
			return fmt.Errorf("%w: --%s %q: want key=number with keys of the --json output, nested ones joined by dots", cli.ErrUsage, flag, kv)
		}
		if fails(got, bound) {
			out = append(out, fmt.Sprintf("%s %.4f is %s %.4f", key, got, what, bound))
		}
	}
	if len(out) > 0 {
		return fmt.Errorf("quality gate: %s", strings.Join(out, "; "))
	}
	return nil
}

// figure looks up a number of the --json output by its dotted key.
func figure(figures map[string]any, key string) (float64, bool) {
	var v any = figures
	for part := range strings.SplitSeq(key, ".") {
		m, ok := v.(map[string]any)
		if !ok {
			return 0, false
		}
		v = m[part]
	}
	f, ok := v.(float64)
	return f, ok
}
