package memapi

import (
	"fmt"
	"slices"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/fields"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
)

// filter is what a list or watch asked for: a namespace ("" for all) and
// label and field selectors.
type filter struct {
	kind      *kind
	namespace string
	labels    labels.Selector
	fields    fields.Selector
}

func newFilter(k *kind, namespace string, l labels.Selector, f fields.Selector) (filter, error) {
	if !k.namespaced {
		namespace = ""
	}
	if l == nil {
		l = labels.Everything()
	}
	if f == nil {
		f = fields.Everything()
	}
	for _, r := range f.Requirements() {
		if r.Field != "metadata.name" && r.Field != "metadata.namespace" && !slices.Contains(k.fields, r.Field) {
			return filter{}, apierrors.NewBadRequest(fmt.Sprintf("field label not supported: %s", r.Field))
		}
	}
	return filter{kind: k, namespace: namespace, labels: l, fields: f}, nil
}

// everything reports whether the filter lets every object of the resource through.
func (f filter) everything() bool {
	return f.namespace == "" && f.labels.Empty() && f.fields.Empty()
}

func (f filter) matches(obj runtime.Object) bool {
	m := metaOf(obj)
	if f.namespace != "" && m.GetNamespace() != f.namespace {
		return false
	}
	if !f.labels.Empty() && !f.labels.Matches(labels.Set(m.GetLabels())) {
		return false
	}
	if !f.fields.Empty() && !f.fields.Matches(objectFields(obj)) {
		return false
	}
	return true
}

// objectFields returns the selectable fields of an object, as the real
// server's per-kind field label conversions define them.
func objectFields(obj runtime.Object) fields.Set {
	m := metaOf(obj)
	set := fields.Set{"metadata.name": m.GetName(), "metadata.namespace": m.GetNamespace()}
	switch o := obj.(type) {
	case *corev1.Pod:
		set["spec.nodeName"] = o.Spec.NodeName
		set["spec.restartPolicy"] = string(o.Spec.RestartPolicy)
		set["spec.schedulerName"] = o.Spec.SchedulerName
		set["spec.serviceAccountName"] = o.Spec.ServiceAccountName
		set["spec.hostNetwork"] = strconv.FormatBool(o.Spec.HostNetwork)
		set["status.phase"] = string(o.Status.Phase)
		set["status.podIP"] = o.Status.PodIP
		set["status.nominatedNodeName"] = o.Status.NominatedNodeName
	case *corev1.Event:
		set["involvedObject.kind"] = o.InvolvedObject.Kind
		set["involvedObject.namespace"] = o.InvolvedObject.Namespace
		set["involvedObject.name"] = o.InvolvedObject.Name
		set["involvedObject.uid"] = string(o.InvolvedObject.UID)
		set["involvedObject.apiVersion"] = o.InvolvedObject.APIVersion
		set["involvedObject.resourceVersion"] = o.InvolvedObject.ResourceVersion
		set["involvedObject.fieldPath"] = o.InvolvedObject.FieldPath
		set["reason"] = o.Reason
		set["reportingComponent"] = o.ReportingController
		set["source"] = o.Source.Component
		set["type"] = o.Type
	case *corev1.Node:
		set["spec.unschedulable"] = strconv.FormatBool(o.Spec.Unschedulable)
	case *corev1.Namespace:
		set["status.phase"] = string(o.Status.Phase)
	case *corev1.Secret:
		set["type"] = string(o.Type)
	case *appsv1.ReplicaSet:
		set["status.replicas"] = strconv.Itoa(int(o.Status.Replicas))
	case *corev1.ReplicationController:
		set["status.replicas"] = strconv.Itoa(int(o.Status.Replicas))
	}
	return set
}
