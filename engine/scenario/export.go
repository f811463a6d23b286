package scenario

import (
	"bytes"
	"fmt"
	"strings"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	sigsyaml "sigs.k8s.io/yaml"

	"rollscope/model/kind"
)

// Export writes objects — a cluster at one moment, a recording's — as a
// scenario file: its nodes as one node group of as many nodes, with the
// first's capacity, and its workloads, ReplicaSets, PDBs and Services as
// manifests. The ReplicaSets are written without their owners, with their
// replicas, labels (pod-template-hash) and revision annotations: the
// workload's controller adopts them as a real one adopts orphans, so the
// scenario starts from the same revisions and the same split between
// them. Pods are not written: each ReplicaSet starts its own, new, and
// their ages start again from the scenario's start. What a scenario
// cannot hold (ControllerRevisions, AnalysisRuns) is left out.
func Export(name, namespace string, objs []runtime.Object) ([]byte, error) {
	if namespace == "" {
		namespace = "default"
	}
	var b bytes.Buffer
	fmt.Fprintf(&b, "# %s: written by rollscope replay --export-scenario\nname: %s\nnamespace: %s\n", name, quote(name), namespace)
	var nodes []*corev1.Node
	var manifests []string
	for _, obj := range objs {
		if n, ok := obj.(*corev1.Node); ok {
			nodes = append(nodes, n)
			continue
		}
		gvk, ok := exportKind(obj)
		if !ok {
			continue
		}
		text, err := manifestOf(obj.DeepCopyObject(), gvk)
		if err != nil {
			return nil, err
		}
		manifests = append(manifests, text)
	}
	if len(nodes) > 0 {
		c := nodes[0].Status.Allocatable
		if len(c) == 0 {
			c = nodes[0].Status.Capacity
		}
		fmt.Fprintf(&b, "nodeGroups:\n  - {name: nodes, size: %d, capacity: {pods: %d, cpu: %q, memory: %s}}\n",
			len(nodes), max(c.Pods().Value(), 1), c.Cpu().String(), c.Memory().String())
	}
	if len(manifests) == 0 {
		return nil, fmt.Errorf("nothing to export: the recording holds no workload at that moment")
	}
	b.WriteString("objects: |\n")
	for i, m := range manifests {
		if i > 0 {
			b.WriteString("  ---\n")
		}
		for _, line := range strings.Split(strings.TrimRight(m, "\n"), "\n") {
			b.WriteString("  " + line + "\n")
		}
	}
	return b.Bytes(), nil
}

// exportKind is the apiVersion and kind a scenario declares obj as; false
// for what a scenario does not take, or the cluster makes itself.
func exportKind(obj runtime.Object) (manifestKind, bool) {
	if w, ok := kind.Of(obj); ok {
		e, _ := w.Kind().Entry()
		return lookupKind(e.Name)
	}
	switch o := obj.(type) {
	case *corev1.Namespace:
		if o.Name == "default" || strings.HasPrefix(o.Name, "kube-") {
			return manifestKind{}, false
		}
		return lookupKind("Namespace")
	case *corev1.Service:
		return lookupKind("Service")
	}
	k := fmt.Sprintf("%T", obj)
	switch {
	case strings.HasSuffix(k, ".ReplicaSet"):
		return lookupKind("ReplicaSet")
	case strings.HasSuffix(k, ".PodDisruptionBudget"):
		return lookupKind("PodDisruptionBudget")
	}
	return manifestKind{}, false
}

// manifestOf is obj as written in a scenario: the spec and the metadata
// one writes (name, namespace, labels, annotations), without what the
// API server and controllers set (status, UIDs, owners, times).
func manifestOf(obj runtime.Object, k manifestKind) (string, error) {
	m, err := meta.Accessor(obj)
	if err != nil {
		return "", err
	}
	u, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", k.kind, m.GetName(), err)
	}
	md := map[string]any{"name": m.GetName()}
	if k.namespaced && m.GetNamespace() != "" {
		md["namespace"] = m.GetNamespace()
	}
	if l := m.GetLabels(); len(l) > 0 {
		md["labels"] = l
	}
	if a := m.GetAnnotations(); len(a) > 0 {
		md["annotations"] = a
	}
	out := map[string]any{"apiVersion": k.apiVersion, "kind": k.kind, "metadata": md}
	if spec, ok := u["spec"]; ok {
		out["spec"] = spec
	}
	y, err := sigsyaml.Marshal(out)
	if err != nil {
		return "", fmt.Errorf("%s %s: %w", k.kind, m.GetName(), err)
	}
	return string(y), nil
}

// quote writes a name as a YAML string.
func quote(s string) string { return fmt.Sprintf("%q", s) }
