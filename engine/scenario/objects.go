package scenario

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"

	"go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
	"k8s.io/client-go/kubernetes/scheme"
	sigsyaml "sigs.k8s.io/yaml"

	"rollscope/model/argo"
	"rollscope/model/kind"
)

// manifestKind is a kind that scenarios may declare, with the one API
// version the embedded cluster serves for it.
type manifestKind struct {
	kind, apiVersion string
	namespaced       bool
}

// manifestKinds are every workload kind of the registry (model/kind), then
// the other objects a scenario may declare.
var manifestKinds = append(workloadManifestKinds(),
	manifestKind{"ReplicaSet", "apps/v1", true},
	manifestKind{"PodDisruptionBudget", "policy/v1", true},
	manifestKind{"Namespace", "v1", false},
	manifestKind{"ConfigMap", "v1", true},
	manifestKind{"Service", "v1", true},
	manifestKind{"Pod", "v1", true},
	manifestKind{"AnalysisTemplate", argo.GroupVersion.String(), true},
)

func workloadManifestKinds() []manifestKind {
	var out []manifestKind
	for _, e := range kind.All() {
		out = append(out, manifestKind{e.Name, e.GroupVersion.String(), true})
	}
	return out
}

func lookupKind(kind string) (manifestKind, bool) {
	for _, k := range manifestKinds {
		if k.kind == kind {
			return k, true
		}
	}
	return manifestKind{}, false
}

func kindNames() string {
	names := make([]string, len(manifestKinds))
	for i, k := range manifestKinds {
		names[i] = k.kind
	}
	return strings.Join(names, ", ")
}

// manifestDecoder decodes into client-go's typed objects and rejects unknown
// and duplicate fields, as `kubectl apply --validate=strict` does.
var manifestDecoder = serializer.NewCodecFactory(scheme.Scheme, serializer.EnableStrict).UniversalDeserializer()

// decodeManifest decodes a manifest of kind mk strictly: a built-in kind
// into client-go's typed object, a custom resource's (Argo's Rollout and
// AnalysisTemplate) into rollscope's own type (model/argo), its fields as
// its kind's row reads them.
func decodeManifest(mk manifestKind, text string) (runtime.Object, error) {
	var obj runtime.Object
	if e, ok := kind.ForName(mk.kind); ok && e.Custom != "" {
		obj = &argo.Rollout{} // the one custom kind of the registry
	} else if mk.kind == "AnalysisTemplate" {
		obj = &argo.AnalysisTemplate{}
	}
	if obj != nil {
		js, err := sigsyaml.YAMLToJSON([]byte(text))
		if err != nil {
			return nil, err
		}
		dec := json.NewDecoder(bytes.NewReader(js))
		dec.DisallowUnknownFields()
		if err := dec.Decode(obj); err != nil {
			return nil, fmt.Errorf("strict decoding error: %w", err)
		}
		return obj, nil
	}
	obj, _, err := manifestDecoder.Decode([]byte(text), nil, nil)
	return obj, err
}

// objectKey identifies a declared object.
type objectKey struct{ kind, namespace, name string }

// declared is one object of the objects block and where it was written.
type declared struct {
	obj  runtime.Object
	line int // file line of its metadata.name
}

// objectSet holds the decoded objects in file order and by key, so that
// actions can check their targets.
type objectSet struct {
	list  []runtime.Object
	byKey map[objectKey]declared
}

func (s *objectSet) find(kind, namespace, name string) (runtime.Object, bool) {
	d, ok := s.byKey[objectKey{kind, namespace, name}]
	return d.obj, ok
}

// objects decodes the multi-document manifest text of the objects key.
func (p *parser) objects(n *yaml.Node, namespace string) (*objectSet, error) {
	set := &objectSet{byKey: map[objectKey]declared{}}
	if n == nil {
		return set, nil
	}
	if n.Kind != yaml.ScalarNode || n.Tag != "!!str" {
		return nil, p.errorf(n, "objects must be a block of YAML manifests (write objects: | and indent the manifests under it)")
	}
	// The text of a literal block starts on the line after its "|"; a
	// quoted or plain string starts on the key's own line.
	base := n.Line - 1
	if n.Style&(yaml.LiteralStyle|yaml.FoldedStyle) != 0 {
		base = n.Line
	}
	// The scenario's namespace is created first, then the objects in file
	// order: a namespace must be declared above the objects in it.
	namespaces := map[string]bool{namespace: true}
	for _, doc := range splitDocuments(n.Value) {
		q := &parser{file: p.file, offset: p.offset + base + doc.line - 1}
		obj, nameLine, err := q.manifest(doc.text, namespace)
		if err != nil {
			return nil, err
		}
		if obj == nil {
			continue
		}
		m, _ := meta.Accessor(obj)
		kind := obj.GetObjectKind().GroupVersionKind().Kind
		key := objectKey{kind, m.GetNamespace(), m.GetName()}
		if first, dup := set.byKey[key]; dup {
			return nil, p.errorAtFileLine(nameLine, "duplicate %s %q in namespace %q (first declared on line %d; names must be unique per kind)", kind, key.name, key.namespace, first.line)
		}
		if kind == "Namespace" {
			namespaces[key.name] = true
		} else if key.namespace != "" && !namespaces[key.namespace] {
			return nil, p.errorAtFileLine(nameLine, "%s %q is in namespace %q, which the scenario does not create — declare it above (kind: Namespace, metadata: {name: %s}) or leave namespace out for %q",
				kind, key.name, key.namespace, key.namespace, namespace)
		}
		set.byKey[key] = declared{obj: obj, line: nameLine}
		set.list = append(set.list, obj)
	}
	return set, nil
}

// manifestText is one document of the objects block; line is where it starts
// within the block (1-based).
type manifestText struct {
	text string
	line int
}

// splitDocuments cuts a multi-document YAML text at its "---" lines, keeping
// track of where each document starts so that errors point into the file.
func splitDocuments(block string) []manifestText {
	var docs []manifestText
	var cur strings.Builder
	start := 1
	for i, line := range strings.SplitAfter(block, "\n") {
		bare := strings.TrimRight(line, "\r\n")
		if bare == "---" || strings.HasPrefix(bare, "--- ") || strings.HasPrefix(bare, "---\t") {
			docs = append(docs, manifestText{cur.String(), start})
			cur.Reset()
			start = i + 1
			// Whatever follows the marker on its line belongs to the next document.
			cur.WriteString(strings.Repeat(" ", 3))
			cur.WriteString(line[3:])
			continue
		}
		cur.WriteString(line)
	}
	return append(docs, manifestText{cur.String(), start})
}

// manifest decodes one document. It returns nil for a document that holds
// only comments, and the file line of metadata.name for later errors.
func (p *parser) manifest(text, namespace string) (runtime.Object, int, error) {
	dec := yaml.NewDecoder(strings.NewReader(text))
	var doc yaml.Node
	if err := decodeNode(dec, &doc); err != nil {
		if errors.Is(err, io.EOF) {
			return nil, 0, nil
		}
		return nil, 0, p.syntaxError([]byte(text), err)
	}
	var extra yaml.Node
	if err := decodeNode(dec, &extra); !errors.Is(err, io.EOF) {
		if err != nil {
			return nil, 0, p.syntaxError([]byte(text), err)
		}
		at := &extra
		if len(extra.Content) > 0 {
			if isNull(extra.Content[0]) {
				at = nil
			} else {
				at = extra.Content[0]
			}
		}
		if at != nil {
			return nil, 0, p.errorf(at, "a second document starts here without a \"---\" line (separate manifests with a line holding only ---)")
		}
	}
	if len(doc.Content) == 0 || isNull(doc.Content[0]) {
		return nil, 0, nil
	}
	root := resolve(doc.Content[0])
	if root.Kind != yaml.MappingNode {
		return nil, 0, p.errorf(root, "a manifest must be a mapping with apiVersion, kind and metadata, not a %s", kindName(root))
	}
	if err := p.precheck(root, ""); err != nil {
		return nil, 0, err
	}
	kindNode, apiNode := child(root, "kind"), child(root, "apiVersion")
	if kindNode == nil || kindNode.Kind != yaml.ScalarNode || kindNode.Value == "" {
		return nil, 0, p.errorf(root, "manifest has no kind (add kind: and apiVersion:, for example kind: Deployment and apiVersion: apps/v1)")
	}
	mk, ok := lookupKind(kindNode.Value)
	if !ok {
		return nil, 0, p.errorf(kindNode, "kind %q is not supported in scenarios (use one of: %s)", kindNode.Value, kindNames())
	}
	if apiNode == nil || apiNode.Kind != yaml.ScalarNode || apiNode.Value != mk.apiVersion {
		got := "nothing"
		if apiNode != nil {
			got = describe(apiNode)
		}
		return nil, 0, p.errorf(firstNode(apiNode, kindNode), "%s needs apiVersion %q, got %s (write apiVersion: %s)", mk.kind, mk.apiVersion, got, mk.apiVersion)
	}
	name := ""
	if n := fieldAt(root, "metadata.name"); n != nil && n.Kind == yaml.ScalarNode {
		name = n.Value
	}
	obj, err := decodeManifest(mk, text)
	if err != nil {
		return nil, 0, p.decodeError(root, mk.kind, name, err)
	}
	m, err := meta.Accessor(obj)
	if err != nil {
		return nil, 0, p.errorf(kindNode, "cannot read the metadata of %s %q: %v", mk.kind, name, err)
	}
	if mk.namespaced && m.GetNamespace() == "" {
		m.SetNamespace(namespace)
	}
	if prob := checkObject(obj); prob != nil {
		return nil, 0, p.errorAt(locate(root, prob.Path), "%s", prob.Msg)
	}
	return obj, locate(root, "metadata.name") + p.offset, nil
}

// precheck walks a manifest before decoding for what the decoder would
// report without a line: repeated keys and malformed resource quantities.
// Aliases are not followed, so a hostile file cannot make it walk forever.
func (p *parser) precheck(n *yaml.Node, at string) error {
	switch n.Kind {
	case yaml.MappingNode:
		seen := map[string]int{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			if k.Kind == yaml.ScalarNode {
				if line, dup := seen[k.Value]; dup {
					return p.errorf(k, "duplicate key %q in %s (first set on line %d; keep one)", k.Value, orTop(at), line+p.offset)
				}
				seen[k.Value] = k.Line
			}
			sub := joinPath(at, k.Value)
			if isQuantityMap(k.Value, at) && v.Kind == yaml.MappingNode {
				for j := 0; j+1 < len(v.Content); j += 2 {
					qv := v.Content[j+1]
					if qv.Kind != yaml.ScalarNode {
						continue
					}
					if _, err := resource.ParseQuantity(qv.Value); err != nil {
						return p.errorf(qv, "%s.%s %q is not a quantity (write it like \"500m\", \"2\" or \"128Mi\")", sub, v.Content[j].Value, qv.Value)
					}
				}
			}
			if err := p.precheck(v, sub); err != nil {
				return err
			}
		}
	case yaml.SequenceNode:
		for i, it := range n.Content {
			if err := p.precheck(it, fmt.Sprintf("%s[%d]", at, i)); err != nil {
				return err
			}
		}
	}
	return nil
}

// isQuantityMap tells the mappings whose values are resource quantities.
func isQuantityMap(key, parent string) bool {
	return (key == "requests" || key == "limits") && strings.HasSuffix(parent, "resources")
}

func joinPath(at, key string) string {
	if at == "" {
		return key
	}
	return at + "." + key
}

func orTop(at string) string {
	if at == "" {
		return "the manifest"
	}
	return at
}
