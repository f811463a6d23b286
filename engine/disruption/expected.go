package disruption

import (
	"context"
	"fmt"
	"slices"
	"sort"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// target is how many pods a budget protects and how many of them must stay
// healthy.
type target struct {
	expected, desiredHealthy int32
	// unmanaged names the selected pods that have no controller; with a
	// percentage or maxUnavailable they are left out of expected.
	unmanaged []string
}

// budgetTarget works out expected and desired healthy pods the way upstream
// does: an integer minAvailable is compared with the pods that exist;
// anything relative (a percentage, or maxUnavailable) is taken of the
// replicas the pods' controllers want, so that missing pods count as
// unavailable.
func (c *Controller) budgetTarget(ctx context.Context, b *policyv1.PodDisruptionBudget, pods []*corev1.Pod) (target, error) {
	var t target
	switch {
	case b.Spec.MaxUnavailable != nil:
		expected, unmanaged, err := c.controllersScale(ctx, pods)
		if err != nil {
			return t, err
		}
		maxUnavailable, err := intstr.GetScaledValueFromIntOrPercent(b.Spec.MaxUnavailable, int(expected), true)
		if err != nil {
			return t, fmt.Errorf("read maxUnavailable %q: %w", b.Spec.MaxUnavailable.String(), err)
		}
		t = target{expected: expected, desiredHealthy: max(0, expected-int32(maxUnavailable)), unmanaged: unmanaged}
	case b.Spec.MinAvailable != nil && b.Spec.MinAvailable.Type == intstr.Int:
		t = target{expected: int32(len(pods)), desiredHealthy: b.Spec.MinAvailable.IntVal}
	case b.Spec.MinAvailable != nil:
		expected, unmanaged, err := c.controllersScale(ctx, pods)
		if err != nil {
			return t, err
		}
		minAvailable, err := intstr.GetScaledValueFromIntOrPercent(b.Spec.MinAvailable, int(expected), true)
		if err != nil {
			return t, fmt.Errorf("read minAvailable %q: %w", b.Spec.MinAvailable.String(), err)
		}
		t = target{expected: expected, desiredHealthy: int32(minAvailable), unmanaged: unmanaged}
	}
	return t, nil
}

// controllersScale sums spec.replicas over the distinct controllers of pods.
// A pod without a controller is listed as unmanaged; a pod whose controller
// cannot be found is an error, since the budget cannot be judged without it.
func (c *Controller) controllersScale(ctx context.Context, pods []*corev1.Pod) (int32, []string, error) {
	scale := map[types.UID]int32{} // by the UID of the controller counted
	// resolved records, per UID a pod's reference names (a ReplicaSet of a
	// Deployment, say), whether a controller was found for it, so that each
	// reference is resolved once rather than once per pod.
	resolved := map[types.UID]bool{}
	var unmanaged []string
	orphaned := "" // the first, by name, of the pods whose controller is gone
	for _, p := range pods {
		ref := metav1.GetControllerOfNoCopy(p)
		if ref == nil {
			unmanaged = append(unmanaged, p.Name)
			continue
		}
		ok, seen := resolved[ref.UID]
		if !seen {
			uid, replicas, found, err := c.findController(ctx, ref, p.Namespace)
			if err != nil {
				return 0, nil, err
			}
			if found {
				scale[uid] = replicas
			}
			resolved[ref.UID], ok = found, found
		}
		if ok {
			continue
		}
		// Upstream names the first such pod it meets, in cache order;
		// naming the first by name gives the same error, reproducibly.
		if orphaned == "" || p.Name < orphaned {
			orphaned = p.Name
		}
	}
	if orphaned != "" {
		return 0, nil, fmt.Errorf("found no controllers for pod %q", orphaned)
	}
	var sum int32
	for _, n := range scale {
		sum += n
	}
	sort.Strings(unmanaged)
	return sum, unmanaged, nil
}

// findController tries every finder on ref.
func (c *Controller) findController(ctx context.Context, ref *metav1.OwnerReference, namespace string) (types.UID, int32, bool, error) {
	for _, find := range c.finders() {
		uid, replicas, ok, err := find(ctx, ref, namespace)
		if err != nil || ok {
			return uid, replicas, ok, err
		}
	}
	return "", 0, false, nil
}

// finder resolves a controller reference of one kind to the controller's UID
// and desired replicas; ok is false when the reference is not of its kind or
// the controller is gone.
type finder func(ctx context.Context, ref *metav1.OwnerReference, namespace string) (uid types.UID, replicas int32, ok bool, err error)

// finders are tried in upstream's order. A ReplicaSet run by a Deployment
// counts as the Deployment, whose replicas include surge and old pods' room.
func (c *Controller) finders() []finder {
	return []finder{c.replicationController, c.deployment, c.replicaSet, c.statefulSet}
}

// isKind reports whether ref points at kind in one of groups.
func isKind(ref *metav1.OwnerReference, kind string, groups ...string) (bool, error) {
	gv, err := schema.ParseGroupVersion(ref.APIVersion)
	if err != nil {
		return false, fmt.Errorf("read apiVersion %q of controller %s: %w", ref.APIVersion, ref.Name, err)
	}
	return ref.Kind == kind && slices.Contains(groups, gv.Group), nil
}

// replicas is spec.replicas, which the API defaults to 1.
func replicas(r *int32) int32 {
	if r == nil {
		return 1
	}
	return *r
}

func (c *Controller) replicationController(_ context.Context, ref *metav1.OwnerReference, ns string) (types.UID, int32, bool, error) {
	if ok, err := isKind(ref, "ReplicationController", ""); !ok || err != nil || c.env.Listers.ReplicationControllers == nil {
		return "", 0, false, err
	}
	rc, err := c.env.Listers.ReplicationControllers.ReplicationControllers(ns).Get(ref.Name)
	if err != nil || rc.UID != ref.UID {
		return "", 0, false, nil
	}
	return rc.UID, replicas(rc.Spec.Replicas), true, nil
}

func (c *Controller) deployment(_ context.Context, ref *metav1.OwnerReference, ns string) (types.UID, int32, bool, error) {
	if ok, err := isKind(ref, "ReplicaSet", "apps", "extensions"); !ok || err != nil || c.env.Listers.ReplicaSets == nil || c.env.Listers.Deployments == nil {
		return "", 0, false, err
	}
	rs, err := c.env.Listers.ReplicaSets.ReplicaSets(ns).Get(ref.Name)
	if err != nil || rs.UID != ref.UID {
		return "", 0, false, nil
	}
	dref := metav1.GetControllerOfNoCopy(rs)
	if dref == nil {
		return "", 0, false, nil
	}
	if ok, err := isKind(dref, "Deployment", "apps", "extensions"); !ok || err != nil {
		return "", 0, false, err
	}
	d, err := c.env.Listers.Deployments.Deployments(ns).Get(dref.Name)
	if err != nil || d.UID != dref.UID {
		return "", 0, false, nil
	}
	return d.UID, replicas(d.Spec.Replicas), true, nil
}

func (c *Controller) replicaSet(_ context.Context, ref *metav1.OwnerReference, ns string) (types.UID, int32, bool, error) {
	if ok, err := isKind(ref, "ReplicaSet", "apps", "extensions"); !ok || err != nil || c.env.Listers.ReplicaSets == nil {
		return "", 0, false, err
	}
	rs, err := c.env.Listers.ReplicaSets.ReplicaSets(ns).Get(ref.Name)
	if err != nil || rs.UID != ref.UID {
		return "", 0, false, nil
	}
	if owner := metav1.GetControllerOfNoCopy(rs); owner != nil && owner.Kind == "Deployment" {
		// Counted through its Deployment, or not at all if that is gone.
		return "", 0, false, nil
	}
	return rs.UID, replicas(rs.Spec.Replicas), true, nil
}

// statefulSet reads StatefulSets from the API: the runners keep no cache of
// them, as nothing else in the embedded cluster watches them.
func (c *Controller) statefulSet(ctx context.Context, ref *metav1.OwnerReference, ns string) (types.UID, int32, bool, error) {
	if ok, err := isKind(ref, "StatefulSet", "apps"); !ok || err != nil {
		return "", 0, false, err
	}
	ss, err := c.env.Client.AppsV1().StatefulSets(ns).Get(ctx, ref.Name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return "", 0, false, nil
	}
	if err != nil {
		return "", 0, false, fmt.Errorf("read StatefulSet %s/%s: %w", ns, ref.Name, err)
	}
	if ss.UID != ref.UID {
		return "", 0, false, nil
	}
	return ss.UID, replicas(ss.Spec.Replicas), true, nil
}
