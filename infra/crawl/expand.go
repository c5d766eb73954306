package crawl

import (
	"fmt"
	"os"
	"slices"
)

// expander resolves ${VAR} references, naming the field of the first unset
// variable.
type expander struct {
	lookup func(string) (string, bool)
	err    error
}

func (e *expander) expand(field, s string) string {
	return refRE.ReplaceAllStringFunc(s, func(ref string) string {
		name := ref[2 : len(ref)-1]
		v, ok := e.lookup(name)
		if !ok && e.err == nil {
			e.err = fmt.Errorf("%s: environment variable %s is not set", field, name)
		}
		return v
	})
}

// Expand returns s with every ${VAR} reference resolved by lookup
// (os.LookupEnv if nil). A reference to an unset variable is an error
// naming the field and the variable; it never holds the values.
func (s *ServerConfig) Expand(lookup func(string) (string, bool)) (*ServerConfig, error) {
	if lookup == nil {
		lookup = os.LookupEnv
	}
	e := &expander{lookup: lookup}
	out := *s
	out.URL = e.expand(s.where+".url", s.URL)
	out.Command = e.expand(s.where+".command", s.Command)
	out.Args = make([]string, len(s.Args))
	for i, a := range s.Args {
		out.Args[i] = e.expand(fmt.Sprintf("%s.args[%d]", s.where, i), a)
	}
	out.Headers = expandMap(e, s.where+".headers", s.Headers)
	out.Env = expandMap(e, s.where+".env", s.Env)
	if e.err != nil {
		return nil, e.err
	}
	return &out, nil
}

func expandMap(e *expander, path string, m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for _, k := range sortedKeys(m) {
		out[k] = e.expand(path+"."+k, m[k])
	}
	return out
}

func sortedKeys(m map[string]string) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	return keys
}
