package e2e

import (
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"gopkg.in/yaml.v3"
)

// loadFunctions returns the AWS::Serverless::Function resources of
// template.yaml, sorted by logical id.
func loadFunctions(t *testing.T) []function {
	t.Helper()
	tmpl := loadTemplate(t, filepath.Join(repoRoot, "template.yaml"))
	globals, _ := lookup(tmpl, "Globals", "Function").(map[string]any)
	resources, _ := tmpl["Resources"].(map[string]any)
	var fns []function
	for _, id := range sortedKeys(resources) {
		r, _ := resources[id].(map[string]any)
		if r["Type"] != "AWS::Serverless::Function" {
			continue
		}
		props, _ := r["Properties"].(map[string]any)
		meta, _ := r["Metadata"].(map[string]any)
		fns = append(fns, function{id: id, properties: mergeGlobals(globals, props), metadata: meta})
	}
	if len(fns) == 0 {
		t.Fatal("template.yaml has no AWS::Serverless::Function")
	}
	return fns
}

// mergeGlobals returns props over globals: SAM merges maps (such as
// Environment.Variables) key by key; otherwise the function's value wins.
func mergeGlobals(globals, props map[string]any) map[string]any {
	merged := map[string]any{}
	for k, v := range globals {
		merged[k] = v
	}
	for k, v := range props {
		gm, gok := merged[k].(map[string]any)
		pm, pok := v.(map[string]any)
		if gok && pok {
			v = mergeGlobals(gm, pm)
		}
		merged[k] = v
	}
	return merged
}

// loadTemplate decodes a CloudFormation YAML template into maps, slices
// and scalars. Short-form intrinsics become their long form: !Ref X is
// {"Ref": "X"}, !GetAtt A.B is {"Fn::GetAtt": "A.B"}, !Sub s is
// {"Fn::Sub": "s"}; so a tagged value never compares equal to a plain one.
func loadTemplate(t *testing.T, path string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if doc.Kind != yaml.DocumentNode || len(doc.Content) != 1 {
		t.Fatalf("%s: not a single YAML document", path)
	}
	v, err := nodeValue(doc.Content[0])
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	m, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s: top level is not a mapping", path)
	}
	return m
}

func nodeValue(n *yaml.Node) (any, error) {
	var v any
	switch n.Kind {
	case yaml.AliasNode:
		return nodeValue(n.Alias)
	case yaml.MappingNode:
		m := map[string]any{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			x, err := nodeValue(val)
			if err != nil {
				return nil, err
			}
			m[k.Value] = x
		}
		v = m
	case yaml.SequenceNode:
		s := []any{}
		for _, c := range n.Content {
			x, err := nodeValue(c)
			if err != nil {
				return nil, err
			}
			s = append(s, x)
		}
		v = s
	case yaml.ScalarNode:
		if isIntrinsic(n.Tag) {
			v = n.Value // a tagged scalar is a string: a name, a path or a Sub pattern
		} else if err := n.Decode(&v); err != nil {
			return nil, fmt.Errorf("line %d: %v", n.Line, err)
		}
	default:
		return nil, fmt.Errorf("line %d: unexpected YAML node kind %v", n.Line, n.Kind)
	}
	if !isIntrinsic(n.Tag) {
		return v, nil
	}
	name := strings.TrimPrefix(n.Tag, "!")
	if name != "Ref" && name != "Condition" {
		name = "Fn::" + name
	}
	return map[string]any{name: v}, nil
}

// isIntrinsic reports whether tag is a CloudFormation short form (!Ref,
// !Sub, ...) rather than a standard YAML tag (!!str, !!int, ...).
func isIntrinsic(tag string) bool {
	return strings.HasPrefix(tag, "!") && !strings.HasPrefix(tag, "!!")
}

// lookup follows keys through nested maps; it returns nil if one is absent.
func lookup(v any, keys ...string) any {
	for _, k := range keys {
		m, ok := v.(map[string]any)
		if !ok {
			return nil
		}
		v = m[k]
	}
	return v
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func show(v any) string {
	if v == nil {
		return "(unset)"
	}
	return fmt.Sprintf("%#v", v)
}
