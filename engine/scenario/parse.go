package scenario

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/util/validation"
)

var topKeys = []string{"name", "seed", "namespace", "nodeGroups", "images", "objects", "metrics", "actions", "clusters"}

// Parse reads a scenario file. filename is only used in error messages, which
// are single lines of the form "FILE:LINE: message" (see Error).
func Parse(filename string, data []byte) (*Scenario, error) {
	p := &parser{file: filename}
	root, err := p.document(data)
	if err != nil {
		return nil, err
	}
	f, err := p.mapping(root, "the scenario", topKeys...)
	if err != nil {
		return nil, err
	}
	sc := &Scenario{Name: defaultName(filename), Namespace: "default", File: filename}
	if n := f.get("name"); n != nil {
		if sc.Name, err = p.str(n, "name"); err != nil {
			return nil, err
		}
	}
	if n := f.get("seed"); n != nil {
		if sc.Seed, err = p.integer(n, "seed"); err != nil {
			return nil, err
		}
	}
	if sc.Namespace, err = p.namespace(f, sc.Namespace); err != nil {
		return nil, err
	}
	if n := f.get("clusters"); n != nil {
		err = p.clusters(f, n, sc)
	} else {
		err = p.cluster(f, f.get("actions"), sc)
	}
	if err != nil {
		return nil, err
	}
	return sc, nil
}

// cluster reads what one cluster runs — its nodes, images, objects and
// actions — into sc.
func (p *parser) cluster(f *fields, actions *yaml.Node, sc *Scenario) error {
	var err error
	if sc.NodeGroups, err = p.nodeGroups(f.get("nodeGroups")); err != nil {
		return err
	}
	if sc.Images, err = p.images(f.get("images")); err != nil {
		return err
	}
	objs, err := p.objects(f.get("objects"), sc.Namespace)
	if err != nil {
		return err
	}
	sc.Objects = objs.list
	if sc.Metrics, err = p.metrics(f.get("metrics"), objs); err != nil {
		return err
	}
	sc.Actions, err = p.actions(actions, sc, objs)
	return err
}

// namespace reads f's namespace:, else def.
func (p *parser) namespace(f *fields, def string) (string, error) {
	n := f.get("namespace")
	if n == nil {
		return def, nil
	}
	ns, err := p.str(n, "namespace")
	if err != nil {
		return "", err
	}
	if msgs := validation.IsDNS1123Label(ns); len(msgs) > 0 {
		return "", p.errorf(n, "namespace %q is not a valid namespace name: %s", ns, msgs[0])
	}
	return ns, nil
}

func defaultName(filename string) string {
	base := filepath.Base(filename)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

// document decodes the one YAML document of a scenario file.
func (p *parser) document(data []byte) (*yaml.Node, error) {
	dec := yaml.NewDecoder(bytes.NewReader(data))
	var doc yaml.Node
	if err := decodeNode(dec, &doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, p.errorAt(0, "the file is empty (start from a built-in: rollscope scenarios show frontend)")
		}
		return nil, p.syntaxError(data, err)
	}
	for {
		var extra yaml.Node
		err := decodeNode(dec, &extra)
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return nil, p.syntaxError(data, err)
		}
		if len(extra.Content) > 0 && !isNull(extra.Content[0]) {
			return nil, p.errorf(extra.Content[0], "a second YAML document starts here (a scenario is one document; put manifests in the objects: | block)")
		}
	}
	if len(doc.Content) == 0 || isNull(doc.Content[0]) {
		return nil, p.errorAt(0, "the file has no settings (start from a built-in: rollscope scenarios show frontend)")
	}
	return doc.Content[0], nil
}

// decodeNode decodes the next document, turning a parser panic on hostile
// input into an error: a scenario file must never crash rollscope.
func decodeNode(dec *yaml.Decoder, n *yaml.Node) (err error) {
	defer func() {
		if r := recover(); r != nil {
			err = fmt.Errorf("yaml: the parser gave up: %v", r)
		}
	}()
	return dec.Decode(n)
}

var yamlLineRE = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// syntaxError reports a YAML syntax error at its line. The parser's own line
// is often where the enclosing block starts rather than where the mistake is,
// so the line is found by parsing ever longer prefixes of the text until the
// same error appears; the parser's line is the fallback.
func (p *parser) syntaxError(data []byte, err error) *Error {
	text := oneLine(err.Error())
	msg := strings.TrimPrefix(text, "yaml: ")
	line := syntaxErrorLine(data, err.Error())
	if m := yamlLineRE.FindStringSubmatch(text); m != nil {
		msg = m[2]
		if line == 0 {
			line, _ = strconv.Atoi(m[1])
		}
	}
	if line == 0 {
		line = bytes.Count(data, []byte("\n")) + 1
	}
	return p.errorAt(line, "invalid YAML: %s (check indentation, quoting and colons)", msg)
}

// maxLocatedLines bounds the prefix search of syntaxErrorLine, whose cost
// grows with the square of the file's length.
const maxLocatedLines = 2000

// syntaxErrorLine returns the first line at which the text, cut just after
// that line, fails with errText; 0 when none does.
func syntaxErrorLine(data []byte, errText string) int {
	lines := bytes.SplitAfter(data, []byte("\n"))
	limit := min(len(lines), maxLocatedLines)
	var prefix []byte
	for k := 0; k < limit; k++ {
		prefix = append(prefix, lines[k]...)
		dec := yaml.NewDecoder(bytes.NewReader(prefix))
		for {
			var n yaml.Node
			err := decodeNode(dec, &n)
			if err == nil {
				continue
			}
			if err.Error() == errText {
				return k + 1
			}
			break
		}
	}
	return 0
}
