package trace

import (
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model"
	"rollscope/model/argo"
	"rollscope/model/kind"
)

// The projections below hold exactly the fields of one trace line, so that
// comparing two of them tells whether a line is due. They are comparable
// structs of scalars: no maps, no pointers.

// objectKey identifies a namespaced object (namespace "" for nodes).
type objectKey struct{ namespace, name string }

type deploymentLine struct {
	spec, replicas, updated, ready, available, unavailable int32
	paused                                                 bool
	progressing, availableCondition                        string
	// maxSurge and maxUnavailable are resolved as the controller uses
	// them, so that a script sees each canary hold and that the strategy
	// came back.
	maxSurge, maxUnavailable int32
	canary                   canaryLine
}

// canaryLine is a guided canary's step and phase; zero with none.
type canaryLine struct {
	step  int
	state string
}

func projectCanary(d *appsv1.Deployment) canaryLine {
	if _, ok := d.Annotations[model.CanaryAnnotation]; !ok {
		return canaryLine{}
	}
	c, ok, err := model.ReadCanary(d)
	if err != nil || !ok || !model.CanaryCurrent(d, c) {
		return canaryLine{}
	}
	return canaryLine{step: c.State.Step, state: c.State.Phase}
}

func projectDeployment(d *appsv1.Deployment) deploymentLine {
	l := deploymentLine{
		spec:           replicasOrOne(d.Spec.Replicas),
		replicas:       d.Status.Replicas,
		updated:        d.Status.UpdatedReplicas,
		ready:          d.Status.ReadyReplicas,
		available:      d.Status.AvailableReplicas,
		unavailable:    d.Status.UnavailableReplicas,
		paused:         d.Spec.Paused,
		maxSurge:       model.MaxSurge(d),
		maxUnavailable: model.MaxUnavailable(d),
		canary:         projectCanary(d),
	}
	for i := range d.Status.Conditions {
		c := &d.Status.Conditions[i]
		switch c.Type {
		case appsv1.DeploymentProgressing:
			l.progressing = c.Reason
		case appsv1.DeploymentAvailable:
			l.availableCondition = string(c.Status)
		}
	}
	return l
}

// replicaSetLine is a ReplicaSet's; the owner is kept as kind and name so
// that projecting it allocates nothing.
type replicaSetLine struct {
	ownerKind, ownerName             string
	revision                         int64
	spec, replicas, ready, available int32
}

func projectReplicaSet(rs *appsv1.ReplicaSet) replicaSetLine {
	l := replicaSetLine{
		revision:  revision(rs.Annotations),
		spec:      replicasOrOne(rs.Spec.Replicas),
		replicas:  rs.Status.Replicas,
		ready:     rs.Status.ReadyReplicas,
		available: rs.Status.AvailableReplicas,
	}
	if ref := metav1.GetControllerOfNoCopy(rs); ref != nil {
		l.ownerKind, l.ownerName = lowerKind(ref.Kind), ref.Name
	}
	return l
}

// replicasOrOne applies the API default of one replica to an unset count.
func replicasOrOne(r *int32) int32 {
	if r == nil {
		return 1
	}
	return *r
}

// revision is a ReplicaSet's revision: the Deployment controller's
// annotation, or for a Rollout's ReplicaSet Argo's.
func revision(annotations map[string]string) int64 {
	v, ok := annotations[model.RevisionAnnotation]
	if !ok {
		v = annotations[argo.RevisionAnnotation]
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0
	}
	return n
}

type nodeLine struct {
	group                string
	ready, unschedulable bool
	pods                 int
	upToDate             bool
}

// projectNode needs the count of active pods bound to the node, which the
// writer tracks from pod events, and the group specs to judge upToDate.
func projectNode(n *corev1.Node, pods int, specs map[string]string) nodeLine {
	l := nodeLine{
		group:         n.Labels[model.NodeGroupLabel],
		unschedulable: n.Spec.Unschedulable,
		pods:          pods,
		upToDate:      true,
		ready:         model.NodeReady(n),
	}
	// A node of a group the scenario does not declare has nothing to be
	// out of date with.
	if spec, ok := specs[l.group]; ok {
		l.upToDate = n.Annotations[model.NodeSpecAnnotation] == spec
	}
	return l
}

type eventLine struct {
	namespace              string // the object's
	objectKind, objectName string
	reason, message        string
}

// projectEvent returns false for events about objects the trace does not follow.
func projectEvent(e *corev1.Event) (eventLine, bool) {
	switch k := e.InvolvedObject.Kind; k {
	case "ReplicaSet", "Node", "PodDisruptionBudget":
	default:
		if _, workload := kind.ForName(k); !workload {
			return eventLine{}, false
		}
	}
	return eventLine{
		namespace:  e.InvolvedObject.Namespace,
		objectKind: lowerKind(e.InvolvedObject.Kind),
		objectName: e.InvolvedObject.Name,
		reason:     e.Reason,
		message:    e.Message,
	}, true
}

// lowerKind gives the kubectl-style lower-case kind without allocating for
// the kinds a trace meets.
func lowerKind(name string) string {
	switch name {
	case "ReplicaSet":
		return "replicaset"
	case "Node":
		return "node"
	case "PodDisruptionBudget":
		return "poddisruptionbudget"
	case "Pod":
		return "pod"
	}
	if e, ok := kind.ForName(name); ok {
		return string(e.Kind)
	}
	b := []byte(name)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// podBinding is where an active pod counts: its node, or "" when it is
// unscheduled or no longer active.
func podBinding(p *corev1.Pod) string {
	if !model.IsPodActive(p) {
		return ""
	}
	return p.Spec.NodeName
}
