package control

import (
	"maps"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// The ControllerRevision a workload controller keeps of its template is
// built the same way for every kind; how each kind names, labels, numbers
// and prunes its revisions stays with the kind.

// NewRevision is a ControllerRevision of owner (of kind) at revision
// holding patch, its template as the kind's controller records it: labelled
// with the template's labels, annotated as owner is, and controlled by it.
// The kind's controller names it and adds its hash label.
func NewRevision(owner metav1.Object, kind schema.GroupVersionKind, templateLabels map[string]string, patch []byte, revision int64) *appsv1.ControllerRevision {
	lbls := maps.Clone(templateLabels)
	if lbls == nil {
		lbls = map[string]string{}
	}
	return &appsv1.ControllerRevision{
		ObjectMeta: metav1.ObjectMeta{
			Namespace:       owner.GetNamespace(),
			Labels:          lbls,
			Annotations:     maps.Clone(owner.GetAnnotations()),
			OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(owner, kind)},
		},
		Data:     runtime.RawExtension{Raw: patch},
		Revision: revision,
	}
}
