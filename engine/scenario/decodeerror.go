package scenario

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
)

var (
	unknownFieldRE = regexp.MustCompile(`unknown field "([^"]*)"`)
	wrongTypeRE    = regexp.MustCompile(`cannot unmarshal (\w+) into Go struct field \w+\.(\S+) of type (\S+)`)
	yamlInnerRE    = regexp.MustCompile(`yaml: line (\d+): (.*)$`)
)

// decodeError turns a decoder error into one located line. The decoder names
// fields by path; the path is looked up in the document to find the line.
func (p *parser) decodeError(root *yaml.Node, kind, name string, err error) *Error {
	text := oneLine(err.Error())
	what := kind
	if name != "" {
		what = fmt.Sprintf("%s %q", kind, name)
	}
	if m := unknownFieldRE.FindStringSubmatch(text); m != nil {
		return p.errorAt(locate(root, m[1]), "unknown field %q in %s (check the spelling: kubectl explain %s)", m[1], what, explainPath(kind, m[1]))
	}
	if m := wrongTypeRE.FindStringSubmatch(text); m != nil {
		return p.errorAt(locate(root, m[2]), "%s of %s must be %s, not %s", m[2], what, goTypeName(m[3]), yamlTypeName(m[1]))
	}
	if m := yamlInnerRE.FindStringSubmatch(text); m != nil {
		line, _ := strconv.Atoi(m[1])
		return p.errorAt(line, "invalid YAML in %s: %s (check indentation and quoting)", what, m[2])
	}
	return p.errorAt(root.Line, "cannot decode %s: %s", what, text)
}

// explainPath is the kubectl explain argument for the parent of a field.
func explainPath(kind, field string) string {
	parent := field
	if i := strings.LastIndex(field, "."); i >= 0 {
		parent = field[:i]
	} else {
		parent = ""
	}
	var b bytes.Buffer
	b.WriteString(strings.ToLower(kind))
	for _, seg := range strings.Split(parent, ".") {
		if seg == "" {
			continue
		}
		if i := strings.IndexByte(seg, '['); i >= 0 {
			seg = seg[:i]
		}
		b.WriteByte('.')
		b.WriteString(seg)
	}
	return b.String()
}

func goTypeName(t string) string {
	switch {
	case strings.HasPrefix(t, "[]"):
		return "a list"
	case strings.HasPrefix(t, "map["):
		return "a mapping"
	}
	switch strings.TrimLeft(t, "*") {
	case "int32", "int64", "int":
		return "a whole number"
	case "bool":
		return "true or false"
	case "string":
		return "text"
	case "intstr.IntOrString":
		return "a whole number or a percentage"
	}
	return "a mapping"
}

func yamlTypeName(jsonType string) string {
	switch jsonType {
	case "string":
		return "text"
	case "number":
		return "a number"
	case "bool":
		return "true/false"
	case "array":
		return "a list"
	case "object":
		return "a mapping"
	}
	return jsonType
}
