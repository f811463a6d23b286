package scenario

import (
	"fmt"
	"strings"

	"go.yaml.in/yaml/v3"
)

// parser carries the file name into every error and the line offset of the
// text being read: 0 for the scenario itself, the start of a manifest for the
// documents inside objects.
type parser struct {
	file   string
	offset int
}

func (p *parser) errorf(n *yaml.Node, format string, args ...any) *Error {
	line := 0
	if n != nil {
		line = n.Line
	}
	return p.errorAt(line, format, args...)
}

func (p *parser) errorAt(line int, format string, args ...any) *Error {
	if line > 0 {
		line += p.offset
	}
	return &Error{File: p.file, Line: line, Message: oneLine(fmt.Sprintf(format, args...))}
}

// errorAtFileLine reports at a line already counted from the top of the file.
func (p *parser) errorAtFileLine(line int, format string, args ...any) *Error {
	return &Error{File: p.file, Line: line, Message: oneLine(fmt.Sprintf(format, args...))}
}

// resolve follows an alias to the node it names.
func resolve(n *yaml.Node) *yaml.Node {
	if n != nil && n.Kind == yaml.AliasNode && n.Alias != nil {
		return n.Alias
	}
	return n
}

func isNull(n *yaml.Node) bool {
	n = resolve(n)
	return n == nil || (n.Kind == yaml.ScalarNode && n.Tag == "!!null")
}

// fields is a checked YAML mapping: only known keys, each at most once.
type fields struct {
	node  *yaml.Node
	where string
	keys  map[string]*yaml.Node
	vals  map[string]*yaml.Node
	order []string // keys in file order
}

// mapping checks that n is a mapping of known keys without repeats.
func (p *parser) mapping(n *yaml.Node, where string, known ...string) (*fields, error) {
	n = resolve(n)
	if n == nil || n.Kind != yaml.MappingNode {
		return nil, p.errorf(n, "%s must be a mapping of %s (write it as key: value lines)", where, strings.Join(known, ", "))
	}
	f := &fields{node: n, where: where, keys: map[string]*yaml.Node{}, vals: map[string]*yaml.Node{}}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := resolve(n.Content[i]), n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return nil, p.errorf(k, "%s has a key that is not a plain name (keys are one of: %s)", where, strings.Join(known, ", "))
		}
		if !contains(known, k.Value) {
			return nil, p.errorf(k, "unknown key %q in %s (known: %s)", k.Value, where, strings.Join(known, ", "))
		}
		if prev, dup := f.keys[k.Value]; dup {
			return nil, p.errorf(k, "duplicate key %q in %s (first set on line %d; keep one)", k.Value, where, prev.Line+p.offset)
		}
		f.keys[k.Value] = k
		f.vals[k.Value] = v
		f.order = append(f.order, k.Value)
	}
	return f, nil
}

// get returns the value of key, or nil when it is absent or null.
func (f *fields) get(key string) *yaml.Node {
	v := f.vals[key]
	if isNull(v) {
		return nil
	}
	return resolve(v)
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

// sequence checks that n is a list and returns its items.
func (p *parser) sequence(n *yaml.Node, where, example string) ([]*yaml.Node, error) {
	n = resolve(n)
	if isNull(n) {
		return nil, nil
	}
	if n.Kind != yaml.SequenceNode {
		return nil, p.errorf(n, "%s must be a list (write each entry on a line starting with \"- \", like %s)", where, example)
	}
	items := make([]*yaml.Node, len(n.Content))
	for i, it := range n.Content {
		items[i] = resolve(it)
	}
	return items, nil
}

// str reads a scalar as text; null reads as "".
func (p *parser) str(n *yaml.Node, where string) (string, error) {
	n = resolve(n)
	if isNull(n) {
		return "", nil
	}
	if n.Kind != yaml.ScalarNode {
		return "", p.errorf(n, "%s must be a single value, not a %s (quote it if it is text)", where, kindName(n))
	}
	return n.Value, nil
}

// integer reads a whole number.
func (p *parser) integer(n *yaml.Node, where string) (int64, error) {
	n = resolve(n)
	var v int64
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag != "!!int" || n.Decode(&v) != nil {
		return 0, p.errorf(n, "%s must be a whole number, got %s", where, describe(n))
	}
	return v, nil
}

// boolean reads true or false.
func (p *parser) boolean(n *yaml.Node, where string) (bool, error) {
	n = resolve(n)
	var v bool
	if n == nil || n.Kind != yaml.ScalarNode || n.Tag != "!!bool" || n.Decode(&v) != nil {
		return false, p.errorf(n, "%s must be true or false, got %s", where, describe(n))
	}
	return v, nil
}

func kindName(n *yaml.Node) string {
	switch resolve(n).Kind {
	case yaml.MappingNode:
		return "mapping"
	case yaml.SequenceNode:
		return "list"
	default:
		return "value"
	}
}

// describe quotes a scalar or names the shape of anything else, for messages.
func describe(n *yaml.Node) string {
	n = resolve(n)
	if n == nil {
		return "nothing"
	}
	if n.Kind == yaml.ScalarNode {
		if n.Tag == "!!null" {
			return "nothing"
		}
		return fmt.Sprintf("%q", n.Value)
	}
	return "a " + kindName(n)
}
