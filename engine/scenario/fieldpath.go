package scenario

import (
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

// The decoder and the checks name a manifest's fields by path, as
// "spec.template.spec.containers[0].image"; these helpers find the path in
// the YAML tree so that an error can point at its line.

// child returns the value of key in mapping n, or nil.
func child(n *yaml.Node, key string) *yaml.Node {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if resolve(n.Content[i]).Value == key {
			return resolve(n.Content[i+1])
		}
	}
	return nil
}

// fieldAt follows a field path such as "spec.template.spec.containers[0].image"
// and returns the node there, or nil.
func fieldAt(root *yaml.Node, p string) *yaml.Node {
	n, complete := walk(root, p)
	if !complete {
		return nil
	}
	return n
}

// locate returns the document line of the field at p, or of the deepest
// part of p that exists, so that an error points as close as it can.
func locate(root *yaml.Node, p string) int {
	n, _ := walk(root, p)
	return n.Line
}

func walk(root *yaml.Node, p string) (*yaml.Node, bool) {
	n := resolve(root)
	for _, seg := range strings.Split(p, ".") {
		key, rest, _ := strings.Cut(seg, "[")
		if key != "" {
			next := childKey(n, key)
			if next == nil {
				return n, false
			}
			n = next
		}
		for rest != "" {
			idx, after, ok := strings.Cut(rest, "]")
			i, err := strconv.Atoi(idx)
			if !ok || err != nil || n.Kind != yaml.SequenceNode || i < 0 || i >= len(n.Content) {
				return n, false
			}
			n = resolve(n.Content[i])
			rest = strings.TrimPrefix(after, "[")
		}
	}
	return n, true
}

// childKey is like child but returns the key node when the value is a
// collection, whose own line may be after the key's.
func childKey(n *yaml.Node, key string) *yaml.Node {
	if n == nil || n.Kind != yaml.MappingNode {
		return nil
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		if resolve(n.Content[i]).Value == key {
			v := resolve(n.Content[i+1])
			if v.Kind == yaml.ScalarNode {
				return v
			}
			// Keep the key's line while still walking into the value.
			return &yaml.Node{Kind: v.Kind, Tag: v.Tag, Content: v.Content, Line: n.Content[i].Line, Column: n.Content[i].Column}
		}
	}
	return nil
}
