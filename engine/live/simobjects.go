package live

import (
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"rollscope/model/kind"
)

// runObjects are the scenario's objects as one run creates them: all in the
// run's namespace whatever namespace they name (a Namespace object is the
// run's own namespace, already there), and, when pin is set, with pods that
// go only to the run's hollow nodes.
func runObjects(objs []runtime.Object, namespace string, pin *corev1.Taint) []runtime.Object {
	out := make([]runtime.Object, 0, len(objs))
	for _, obj := range objs {
		if _, ok := obj.(*corev1.Namespace); ok {
			continue
		}
		obj = obj.DeepCopyObject()
		if m, err := meta.Accessor(obj); err == nil {
			m.SetNamespace(namespace)
		}
		if spec := podSpecOf(obj); spec != nil && pin != nil {
			pinTo(spec, *pin)
		}
		out = append(out, obj)
	}
	return out
}

// podSpecOf is the pod spec an object creates pods from, or its own.
func podSpecOf(obj runtime.Object) *corev1.PodSpec {
	if w, ok := kind.Of(obj); ok {
		if t := w.Template(); t != nil {
			return &t.Spec
		}
		return nil
	}
	switch o := obj.(type) {
	case *appsv1.ReplicaSet:
		return &o.Spec.Template.Spec
	case *corev1.Pod:
		return &o.Spec
	}
	return nil
}

// pinTo makes the pods select the nodes that carry the taint's key and
// value as a label, and tolerate the taint: the run's hollow nodes, and no
// one else's.
func pinTo(spec *corev1.PodSpec, t corev1.Taint) {
	selector := make(map[string]string, len(spec.NodeSelector)+1)
	for k, v := range spec.NodeSelector {
		selector[k] = v
	}
	selector[t.Key] = t.Value
	spec.NodeSelector = selector
	spec.Tolerations = append(spec.Tolerations, corev1.Toleration{
		Key: t.Key, Operator: corev1.TolerationOpEqual, Value: t.Value, Effect: t.Effect,
	})
}

// forTrace shows the run's hollow nodes under the scenario's node and group
// names, as the embedded cluster's trace names them, and pods bound to
// those names; every other node is hidden. Workloads keep the run's
// namespace: it is where they can be looked at while the run lasts. The
// copies are shallow: the trace only reads them, and the cache's objects
// must stay as they are.
func (h hollowNames) forTrace(ev watch.Event) (watch.Event, bool) {
	switch o := ev.Object.(type) {
	case *corev1.Node:
		if o.Labels[LabelSimulation] != h.namespace {
			return ev, false
		}
		name, ok := h.scenarioNode(o.Name)
		if !ok {
			return ev, false
		}
		n := *o
		n.Name = name
		n.Labels = h.scenarioLabels(o.Labels)
		ev.Object = &n
	case *corev1.Event:
		e, ok := h.nodeEventForTrace(o)
		if !ok {
			return ev, false
		}
		ev.Object = e
	case *corev1.Pod:
		if name, ok := h.scenarioNode(o.Spec.NodeName); ok {
			p := *o
			p.Spec.NodeName = name
			ev.Object = &p
		}
	}
	return ev, true
}
