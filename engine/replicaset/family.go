package replicaset

import (
	"context"
	"errors"
	"fmt"
	"sort"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
)

// owner is a ReplicaSet, or a ReplicationController seen as one. rs is what
// the shared logic reads; source is the object of the owner's own kind, on
// which events are recorded and status is written. Both may be shared with
// the cache and must not be modified.
type owner struct {
	rs     *appsv1.ReplicaSet
	source runtime.Object
}

// kindAdapter is everything that differs between ReplicaSets and
// ReplicationControllers: where they are read from, how their selector
// reads, and how their status is written.
type kindAdapter interface {
	// watched is the kind whose events drive the controller.
	watched() control.Kind
	// gvk goes into the controller references of the pods it creates.
	gvk() schema.GroupVersionKind
	// fromCache returns the owner from the lister.
	fromCache(namespace, name string) (owner, error)
	// fromAPI reads the owner from the API server, for decisions that must
	// not trust a possibly stale cache (adoption).
	fromAPI(ctx context.Context, namespace, name string) (owner, error)
	// fromEvent converts an object handed to an event handler.
	fromEvent(obj any) (owner, bool)
	// list returns every owner of a namespace, in name order.
	list(namespace string) ([]owner, error)
	// controlledBy returns the owners whose controller has uid.
	controlledBy(uid string) []owner
	// podSelector is the selector of the owner's pods.
	podSelector(rs *appsv1.ReplicaSet) (labels.Selector, error)
	// writeStatus stores status on o through the status subresource.
	writeStatus(ctx context.Context, o owner, status appsv1.ReplicaSetStatus) (owner, error)
}

// errNoLister is returned when the runner gave no cache of the owner kind.
var errNoLister = errors.New("the runner gave no lister for this kind: wire control.Env fully before syncing")

// replicaSets adapts apps/v1 ReplicaSets, which need no conversion.
type replicaSets struct{ env *control.Env }

func (replicaSets) watched() control.Kind { return control.ReplicaSets }

func (replicaSets) gvk() schema.GroupVersionKind {
	return appsv1.SchemeGroupVersion.WithKind("ReplicaSet")
}

func (a replicaSets) fromCache(namespace, name string) (owner, error) {
	if a.env.Listers.ReplicaSets == nil {
		return owner{}, errNoLister
	}
	rs, err := a.env.Listers.ReplicaSets.ReplicaSets(namespace).Get(name)
	return found(rs, err, rsOwner)
}

func (a replicaSets) fromAPI(ctx context.Context, namespace, name string) (owner, error) {
	rs, err := a.env.Client.AppsV1().ReplicaSets(namespace).Get(ctx, name, metav1.GetOptions{})
	return found(rs, err, rsOwner)
}

func (replicaSets) fromEvent(obj any) (owner, bool) { return asOwner(obj, rsOwner) }

func (a replicaSets) list(namespace string) ([]owner, error) {
	if a.env.Listers.ReplicaSets == nil {
		return nil, errNoLister
	}
	all, err := a.env.Listers.ReplicaSets.ReplicaSets(namespace).List(labels.Everything())
	return inNameOrder(all, err, rsOwner)
}

func (a replicaSets) controlledBy(uid string) []owner {
	return controlledIn(a.env.Listers.ReplicaSetIndex, uid, a.fromEvent)
}

func (replicaSets) podSelector(rs *appsv1.ReplicaSet) (labels.Selector, error) {
	if rs.Spec.Selector == nil || (len(rs.Spec.Selector.MatchLabels) == 0 && len(rs.Spec.Selector.MatchExpressions) == 0) {
		// The API refuses such ReplicaSets; acting on one would adopt every pod in the namespace.
		return nil, fmt.Errorf("replica set %s/%s has an empty selector, which would select every pod: set spec.selector", rs.Namespace, rs.Name)
	}
	sel, err := metav1.LabelSelectorAsSelector(rs.Spec.Selector)
	if err != nil {
		return nil, fmt.Errorf("replica set %s/%s has an invalid selector: %w", rs.Namespace, rs.Name, err)
	}
	return sel, nil
}

func (a replicaSets) writeStatus(ctx context.Context, o owner, status appsv1.ReplicaSetStatus) (owner, error) {
	rs := o.rs.DeepCopy()
	rs.Status = status
	updated, err := a.env.Client.AppsV1().ReplicaSets(rs.Namespace).UpdateStatus(ctx, rs, metav1.UpdateOptions{})
	if err != nil {
		return owner{}, err
	}
	return rsOwner(updated), nil
}

// replicationControllers adapts v1 ReplicationControllers: a map selector,
// an optional template, and their own condition type.
type replicationControllers struct{ env *control.Env }

func (replicationControllers) watched() control.Kind { return control.ReplicationControllers }

func (replicationControllers) gvk() schema.GroupVersionKind {
	return corev1.SchemeGroupVersion.WithKind("ReplicationController")
}

func (a replicationControllers) fromCache(namespace, name string) (owner, error) {
	if a.env.Listers.ReplicationControllers == nil {
		return owner{}, errNoLister
	}
	rc, err := a.env.Listers.ReplicationControllers.ReplicationControllers(namespace).Get(name)
	return found(rc, err, rcOwner)
}

func (a replicationControllers) fromAPI(ctx context.Context, namespace, name string) (owner, error) {
	rc, err := a.env.Client.CoreV1().ReplicationControllers(namespace).Get(ctx, name, metav1.GetOptions{})
	return found(rc, err, rcOwner)
}

func (replicationControllers) fromEvent(obj any) (owner, bool) { return asOwner(obj, rcOwner) }

func (a replicationControllers) list(namespace string) ([]owner, error) {
	if a.env.Listers.ReplicationControllers == nil {
		return nil, errNoLister
	}
	all, err := a.env.Listers.ReplicationControllers.ReplicationControllers(namespace).List(labels.Everything())
	return inNameOrder(all, err, rcOwner)
}

func (a replicationControllers) controlledBy(uid string) []owner {
	return controlledIn(a.env.Listers.RCIndex, uid, a.fromEvent)
}

func (replicationControllers) podSelector(rs *appsv1.ReplicaSet) (labels.Selector, error) {
	set := labels.Set(nil)
	if rs.Spec.Selector != nil {
		set = rs.Spec.Selector.MatchLabels
	}
	if len(set) == 0 {
		// The API server defaults an empty selector to the template's labels.
		set = rs.Spec.Template.Labels
	}
	if len(set) == 0 {
		return nil, fmt.Errorf("replication controller %s/%s has neither a selector nor template labels: set spec.selector", rs.Namespace, rs.Name)
	}
	return labels.SelectorFromSet(set), nil
}

func (a replicationControllers) writeStatus(ctx context.Context, o owner, status appsv1.ReplicaSetStatus) (owner, error) {
	rc, ok := o.source.(*corev1.ReplicationController)
	if !ok {
		return owner{}, fmt.Errorf("cannot write status of %s/%s: it is a %T, not a ReplicationController", o.rs.Namespace, o.rs.Name, o.source)
	}
	rc = rc.DeepCopy()
	rc.Status = corev1.ReplicationControllerStatus{
		Replicas:             status.Replicas,
		FullyLabeledReplicas: status.FullyLabeledReplicas,
		ReadyReplicas:        status.ReadyReplicas,
		AvailableReplicas:    status.AvailableReplicas,
		ObservedGeneration:   status.ObservedGeneration,
	}
	for _, c := range status.Conditions {
		rc.Status.Conditions = append(rc.Status.Conditions, corev1.ReplicationControllerCondition{
			Type:               corev1.ReplicationControllerConditionType(c.Type),
			Status:             c.Status,
			LastTransitionTime: c.LastTransitionTime,
			Reason:             c.Reason,
			Message:            c.Message,
		})
	}
	updated, err := a.env.Client.CoreV1().ReplicationControllers(rc.Namespace).UpdateStatus(ctx, rc, metav1.UpdateOptions{})
	if err != nil {
		return owner{}, err
	}
	return rcOwner(updated), nil
}

// rcOwner views rc as the ReplicaSet it is equivalent to, the way upstream's
// replication manager converts it.
func rcOwner(rc *corev1.ReplicationController) owner {
	rs := &appsv1.ReplicaSet{
		ObjectMeta: rc.ObjectMeta,
		Spec: appsv1.ReplicaSetSpec{
			Replicas:        rc.Spec.Replicas,
			MinReadySeconds: rc.Spec.MinReadySeconds,
			Selector:        &metav1.LabelSelector{MatchLabels: rc.Spec.Selector},
		},
		Status: appsv1.ReplicaSetStatus{
			Replicas:             rc.Status.Replicas,
			FullyLabeledReplicas: rc.Status.FullyLabeledReplicas,
			ReadyReplicas:        rc.Status.ReadyReplicas,
			AvailableReplicas:    rc.Status.AvailableReplicas,
			ObservedGeneration:   rc.Status.ObservedGeneration,
		},
	}
	if rc.Spec.Template != nil {
		rs.Spec.Template = *rc.Spec.Template
	}
	for _, c := range rc.Status.Conditions {
		rs.Status.Conditions = append(rs.Status.Conditions, appsv1.ReplicaSetCondition{
			Type:               appsv1.ReplicaSetConditionType(c.Type),
			Status:             c.Status,
			LastTransitionTime: c.LastTransitionTime,
			Reason:             c.Reason,
			Message:            c.Message,
		})
	}
	return owner{rs: rs, source: rc}
}

// rsOwner is a ReplicaSet as an owner: it needs no conversion.
func rsOwner(rs *appsv1.ReplicaSet) owner { return owner{rs: rs, source: rs} }

// found turns what a Get returned into an owner.
func found[T any](obj T, err error, convert func(T) owner) (owner, error) {
	if err != nil {
		return owner{}, err
	}
	return convert(obj), nil
}

// asOwner converts obj when it is of the owner kind T; an event handler
// may be handed anything.
func asOwner[T any](obj any, convert func(T) owner) (owner, bool) {
	o, ok := obj.(T)
	if !ok {
		return owner{}, false
	}
	return convert(o), true
}

// inNameOrder turns what a lister returned into owners, in name order.
func inNameOrder[T any](objs []T, err error, convert func(T) owner) ([]owner, error) {
	if err != nil {
		return nil, err
	}
	out := make([]owner, 0, len(objs))
	for _, o := range objs {
		out = append(out, convert(o))
	}
	sortOwners(out)
	return out, nil
}

// controlledIn returns the owners in index whose controller has uid, in
// name order; convert skips objects of another kind. Without an index (a
// runner that wired none) there are none.
func controlledIn(index cache.Indexer, uid string, convert func(any) (owner, bool)) []owner {
	if index == nil {
		return nil
	}
	objs, err := index.ByIndex(control.IndexByController, uid)
	if err != nil {
		return nil
	}
	var out []owner
	for _, obj := range objs {
		if o, ok := convert(obj); ok {
			out = append(out, o)
		}
	}
	sortOwners(out)
	return out
}

func sortOwners(os []owner) {
	sort.Slice(os, func(i, j int) bool { return os[i].rs.Name < os[j].rs.Name })
}
