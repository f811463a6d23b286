package forecast

import (
	"context"
	"fmt"
	"strconv"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/control"
)

// State is a deployment as observed on the cluster, the starting point of a
// forecast.
type State struct {
	Deployment *appsv1.Deployment
	// ReplicaSets are those the deployment controls; Pods those of its
	// pods that exist (others are ignored).
	ReplicaSets []*appsv1.ReplicaSet
	Pods        []*corev1.Pod
	// Now is when it was observed: the forecast's clock starts there.
	Now time.Time
}

// seeded is the copy once built.
type seeded struct {
	// rv is the resourceVersion of the copy's last write: changes up to it
	// are the copy being built, not the rollout.
	rv uint64
	// due are the ready times of pods copied not ready.
	due map[string]time.Time
}

// seed writes st into the empty API behind c, keeping names, labels,
// annotations, specs and statuses, and re-pointing owner references at the
// copies' new UIDs. The server stamps every object created now; a pod that
// was not ready is given its ready time from its real creation, so a pod
// half way through starting needs only the rest of the time.
func seed(ctx context.Context, c kubernetes.Interface, st State, ready time.Duration) (seeded, error) {
	s := seeded{due: map[string]time.Time{}}
	d := st.Deployment
	ns := d.Namespace
	if err := copyNamespace(ctx, c, ns); err != nil {
		return s, err
	}
	dc := &appsv1.Deployment{ObjectMeta: fresh(d.ObjectMeta, nil), Spec: *d.Spec.DeepCopy()}
	created, err := copyWithStatus(ctx, &s, c.AppsV1().Deployments(ns), "deployment/"+d.Name, dc, func(got *appsv1.Deployment) {
		got.Status = *d.Status.DeepCopy()
		got.Status.ObservedGeneration = got.Generation
	})
	if err != nil {
		return s, err
	}
	rsUID, err := s.seedReplicaSets(ctx, c, st.ReplicaSets, d.UID, ownerRef("Deployment", created.Name, created.UID))
	if err != nil {
		return s, err
	}
	for _, p := range st.Pods {
		if err := s.seedPod(ctx, c, p, rsUID, st.Now, ready); err != nil {
			return s, err
		}
	}
	return s, s.noteLatest(ctx, c, ns)
}

// seedReplicaSets copies the ReplicaSets of rss that the object of uid
// controls, with their statuses, owned by owner (the object's copy); it
// returns the owner references of the copies by the real UIDs, for their
// pods.
func (s *seeded) seedReplicaSets(ctx context.Context, c kubernetes.Interface, rss []*appsv1.ReplicaSet, uid types.UID, owner metav1.OwnerReference) (map[types.UID]metav1.OwnerReference, error) {
	rsUID := map[types.UID]metav1.OwnerReference{}
	for _, rs := range rss {
		if ref := metav1.GetControllerOf(rs); rs == nil || ref == nil || ref.UID != uid {
			continue
		}
		cp := &appsv1.ReplicaSet{ObjectMeta: fresh(rs.ObjectMeta, &owner), Spec: *rs.Spec.DeepCopy()}
		got, err := copyWithStatus(ctx, s, c.AppsV1().ReplicaSets(rs.Namespace), "replicaset/"+rs.Name, cp, func(got *appsv1.ReplicaSet) {
			got.Status = *rs.Status.DeepCopy()
			got.Status.ObservedGeneration = got.Generation
		})
		if err != nil {
			return nil, err
		}
		rsUID[rs.UID] = ownerRef("ReplicaSet", got.Name, got.UID)
	}
	return rsUID, nil
}

// seedPod copies one live pod of the deployment's ReplicaSets, ready (since
// when it was) or not. It writes the pod and its status as the ReplicaSet
// controller and kubelet do (control.CreatePod, control.WritePodStatus), so
// that on the embedded API no copy of the pod answers either write — a
// 30,000-replica forecast spent a fifth of its time on those copies — and
// the writes do not say their resourceVersion: the caller notes it once
// every pod is written (noteLatest).
func (s *seeded) seedPod(ctx context.Context, c kubernetes.Interface, p *corev1.Pod, rsUID map[types.UID]metav1.OwnerReference, now time.Time, ready time.Duration) error {
	if p == nil || p.DeletionTimestamp != nil || p.Status.Phase == corev1.PodSucceeded || p.Status.Phase == corev1.PodFailed {
		return nil
	}
	ref := metav1.GetControllerOf(p)
	if ref == nil {
		return nil
	}
	owner, ok := rsUID[ref.UID]
	if !ok {
		return nil
	}
	pods := c.CoreV1().Pods(p.Namespace)
	created, err := control.CreatePod(ctx, pods, &corev1.Pod{ObjectMeta: fresh(p.ObjectMeta, &owner), Spec: slim(&p.Spec)})
	if err != nil {
		return copyErr("pod/"+p.Name, err)
	}
	if !podReady(p) {
		s.due[p.Namespace+"/"+p.Name] = later(now, p.CreationTimestamp.Add(ready))
		return nil
	}
	cond := readyCondition(p)
	status := corev1.PodStatus{Phase: corev1.PodRunning, StartTime: p.Status.StartTime, Conditions: []corev1.PodCondition{
		{Type: corev1.ContainersReady, Status: corev1.ConditionTrue, LastTransitionTime: cond.LastTransitionTime},
		*cond.DeepCopy(),
	}}
	if err := control.WritePodStatus(ctx, pods, created, &status); err != nil {
		return copyErr("pod/"+p.Name+" status", err)
	}
	return nil
}

// noteLatest notes the copy's resourceVersion as it is now, read from a
// list in namespace (the API's current one): the pod writes of seedPod do
// not say theirs.
func (s *seeded) noteLatest(ctx context.Context, c kubernetes.Interface, namespace string) error {
	l, err := c.AppsV1().ReplicaSets(namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return copyErr("the copy's resourceVersion", err)
	}
	s.note(l.ResourceVersion)
	return nil
}

// statusWriter is a typed client of the copy (Deployments, Nodes, …): a
// create drops an object's status, which a second write puts back.
type statusWriter[T any] interface {
	Create(ctx context.Context, obj T, opts metav1.CreateOptions) (T, error)
	UpdateStatus(ctx context.Context, obj T, opts metav1.UpdateOptions) (T, error)
}

// copyWithStatus creates obj through api, gives what came back its status
// with status (the real object's, as the copy's controllers should find
// it) and writes that too, noting both writes as the copy being built.
// what names the object in an error.
func copyWithStatus[T metav1.Object](ctx context.Context, s *seeded, api statusWriter[T], what string, obj T, status func(T)) (T, error) {
	got, err := api.Create(ctx, obj, metav1.CreateOptions{})
	if err != nil {
		return got, copyErr(what, err)
	}
	status(got)
	if got, err = api.UpdateStatus(ctx, got, metav1.UpdateOptions{}); err != nil {
		return got, copyErr(what+" status", err)
	}
	s.note(got.GetResourceVersion())
	return got, nil
}

// copyNamespace makes the copy's namespace, which may be there already.
func copyNamespace(ctx context.Context, c kubernetes.Interface, ns string) error {
	_, err := c.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{})
	if err != nil && !apierrors.IsAlreadyExists(err) {
		return copyErr("namespace "+ns, err)
	}
	return nil
}

// slim is what the copy keeps of a copied pod's spec: its containers'
// names and images, and its affinity (the node a daemon pod is for). The
// controllers never read the rest, and real pod specs
// (probes, volumes, environments) would only cost copying and validation,
// a thousand times over. It is unbound, like the pods the copy's
// ReplicaSets create: deleting one is immediate, and a pod waiting out its
// grace period no longer counts for the controllers anyway.
func slim(spec *corev1.PodSpec) corev1.PodSpec {
	out := corev1.PodSpec{Containers: make([]corev1.Container, len(spec.Containers)), Affinity: spec.Affinity.DeepCopy()}
	for i, c := range spec.Containers {
		out.Containers[i] = corev1.Container{Name: c.Name, Image: c.Image}
	}
	return out
}

// fresh is m as a new object: no identity, history or owners of its own
// but owner.
func fresh(m metav1.ObjectMeta, owner *metav1.OwnerReference) metav1.ObjectMeta {
	out := metav1.ObjectMeta{
		Name: m.Name, Namespace: m.Namespace,
		Labels: copyMap(m.Labels), Annotations: copyMap(m.Annotations),
	}
	if owner != nil {
		out.OwnerReferences = []metav1.OwnerReference{*owner}
	}
	return out
}

func ownerRef(kind, name string, uid types.UID) metav1.OwnerReference {
	yes := true
	return metav1.OwnerReference{APIVersion: "apps/v1", Kind: kind, Name: name, UID: uid, Controller: &yes, BlockOwnerDeletion: &yes}
}

func copyMap(m map[string]string) map[string]string {
	if m == nil {
		return nil
	}
	out := make(map[string]string, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

func later(a, b time.Time) time.Time {
	if b.After(a) {
		return b
	}
	return a
}

func (s *seeded) note(rv string) {
	if n, err := strconv.ParseUint(rv, 10, 64); err == nil && n > s.rv {
		s.rv = n
	}
}

func copyErr(what string, err error) error {
	return fmt.Errorf("cannot copy %s into the forecast's cluster: %w", what, err)
}
