package statefulset

import (
	"context"
	"errors"
	"sort"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/model"
)

// updateStatefulSet is UpdateStatefulSet: revisions, pods, status, history.
func (c *Controller) updateStatefulSet(ctx context.Context, set *appsv1.StatefulSet, pods []*corev1.Pod, revs []*appsv1.ControllerRevision) (*appsv1.StatefulSetStatus, error) {
	current, update, collisionCount, err := c.revisions(ctx, set, revs)
	if err != nil {
		return nil, errors.Join(err, c.truncateHistory(ctx, set, pods, revs, current, update))
	}
	status, err := c.reconcile(ctx, set, current, update, collisionCount, pods)
	if status != nil {
		if serr := c.writeStatus(ctx, set, status); serr != nil && err == nil {
			err = serr
		}
	}
	return status, errors.Join(err, c.truncateHistory(ctx, set, pods, revs, current, update))
}

// state is how one pod stands, judged once per sync at the runner's time.
type state struct {
	c   *Controller
	mrs int32
}

func (s state) runningAndReady(p *corev1.Pod) bool {
	return p.Status.Phase == corev1.PodRunning && model.IsPodReady(p)
}
func (s state) available(p *corev1.Pod) bool {
	return model.IsPodAvailable(p, s.mrs, s.c.env.Clock.Now())
}
func (s state) unavailable(p *corev1.Pod) bool {
	return !s.runningAndReady(p) || p.DeletionTimestamp != nil || !s.available(p)
}

func isCreated(p *corev1.Pod) bool     { return p.Status.Phase != "" }
func isTerminating(p *corev1.Pod) bool { return p.DeletionTimestamp != nil }
func isFinished(p *corev1.Pod) bool {
	return p.Status.Phase == corev1.PodFailed || p.Status.Phase == corev1.PodSucceeded
}

// reconcile is updateStatefulSet of stateful_set_control.go: it creates
// missing ordinals, replaces finished pods, removes condemned ones (beyond
// replicas, highest first) and then rolls. OrderedReady ("monotonic") stops
// at the first pod not running, ready and available; Parallel does not.
func (c *Controller) reconcile(ctx context.Context, set *appsv1.StatefulSet, current, update *appsv1.ControllerRevision, collisionCount int32, pods []*corev1.Pod) (*appsv1.StatefulSetStatus, error) {
	currentSet, err := applyRevision(set, current)
	if err != nil {
		return nil, err
	}
	updateSet, err := applyRevision(set, update)
	if err != nil {
		return nil, err
	}
	st := state{c: c, mrs: set.Spec.MinReadySeconds}
	status := &appsv1.StatefulSetStatus{
		ObservedGeneration: set.Generation,
		CurrentRevision:    current.Name,
		UpdateRevision:     update.Name,
		CollisionCount:     &collisionCount,
		Conditions:         set.Status.Conditions,
	}
	count := func(lists ...[]*corev1.Pod) { c.countStatus(status, st, current, update, lists...) }
	count(pods)

	replicaCount := int(model.StatefulSetReplicas(set))
	start := model.StatefulSetStartOrdinal(set)
	end := start + replicaCount - 1
	replicas := make([]*corev1.Pod, replicaCount)
	var condemned []*corev1.Pod
	for _, p := range pods {
		_, ord := model.StatefulPodOrdinal(p.Name)
		switch {
		case ord >= start && ord <= end:
			replicas[ord-start] = p
		case ord >= 0:
			condemned = append(condemned, p)
		}
	}
	for ord := start; ord <= end; ord++ {
		if replicas[ord-start] == nil {
			replicas[ord-start] = newVersionedPod(currentSet, updateSet, current.Name, update.Name, ord)
		}
	}
	sort.Slice(condemned, func(i, j int) bool {
		_, a := model.StatefulPodOrdinal(condemned[i].Name)
		_, b := model.StatefulPodOrdinal(condemned[j].Name)
		return a > b
	})
	var firstUnhealthy *corev1.Pod
	for _, p := range replicas {
		if st.unavailable(p) && firstUnhealthy == nil {
			firstUnhealthy = p
		}
	}
	for i := len(condemned) - 1; i >= 0; i-- {
		if st.unavailable(condemned[i]) && firstUnhealthy == nil {
			firstUnhealthy = condemned[i]
		}
	}
	if set.DeletionTimestamp != nil {
		return status, nil
	}
	monotonic := set.Spec.PodManagementPolicy != appsv1.ParallelPodManagement

	for i := range replicas {
		stop, err := c.processReplica(ctx, set, st, monotonic, replicas[i])
		if err != nil || (stop && monotonic) {
			count(replicas, condemned)
			return status, err
		}
	}
	for i := range condemned {
		stop, err := c.processCondemned(ctx, set, st, firstUnhealthy, monotonic, condemned[i])
		if err != nil || (stop && monotonic) {
			count(replicas, condemned)
			return status, err
		}
	}
	count(replicas, condemned)
	if set.Spec.UpdateStrategy.Type == appsv1.OnDeleteStatefulSetStrategyType {
		return status, nil
	}
	return c.roll(ctx, set, st, replicas, update, status)
}

// processReplica handles one ordinal; stop means an OrderedReady set may go
// no further this sync.
func (c *Controller) processReplica(ctx context.Context, set *appsv1.StatefulSet, st state, monotonic bool, p *corev1.Pod) (stop bool, err error) {
	if isFinished(p) {
		if p.DeletionTimestamp == nil {
			if err := c.deletePod(ctx, set, p); err != nil {
				return true, err
			}
		}
		return true, nil
	}
	if !isCreated(p) {
		if err := c.createPod(ctx, set, p); err != nil {
			return true, err
		}
		if monotonic {
			return true, nil
		}
	}
	if isTerminating(p) && monotonic {
		return true, nil
	}
	if !st.runningAndReady(p) && monotonic {
		return true, nil
	}
	if !st.available(p) && monotonic {
		return true, nil
	}
	if identityMatches(set, p) || !isCreated(p) {
		return false, nil
	}
	return false, c.updateIdentity(ctx, set, p)
}

// processCondemned removes a pod beyond the replicas, waiting in
// OrderedReady for every other pod to be healthy first.
func (c *Controller) processCondemned(ctx context.Context, set *appsv1.StatefulSet, st state, firstUnhealthy *corev1.Pod, monotonic bool, p *corev1.Pod) (stop bool, err error) {
	if isTerminating(p) {
		return monotonic, nil
	}
	if !st.runningAndReady(p) && monotonic && p != firstUnhealthy {
		return true, nil
	}
	if !st.available(p) && monotonic && p != firstUnhealthy {
		return true, nil
	}
	return true, c.deletePod(ctx, set, p)
}

// roll deletes the pods the rolling update replaces: as many as
// maxUnavailable leaves room for, highest ordinal first, none below the
// partition (model.StatefulSetUpdateVictims).
func (c *Controller) roll(ctx context.Context, set *appsv1.StatefulSet, st state, replicas []*corev1.Pod, update *appsv1.ControllerRevision, status *appsv1.StatefulSetStatus) (*appsv1.StatefulSetStatus, error) {
	updateMin, maxUnavailable := 0, 1
	if ru := set.Spec.UpdateStrategy.RollingUpdate; ru != nil {
		updateMin = int(model.StatefulSetPartition(set))
		n, err := model.StatefulSetMaxUnavailable(ru.MaxUnavailable, len(replicas))
		if err != nil {
			return status, err
		}
		maxUnavailable = n
	}
	states := make([]model.StatefulReplica, len(replicas))
	for i, p := range replicas {
		states[i] = model.StatefulReplica{
			Updated:     p.Labels[model.RevisionHashLabel] == update.Name,
			Unavailable: st.unavailable(p),
			Terminating: isTerminating(p),
		}
	}
	for _, i := range model.StatefulSetUpdateVictims(states, updateMin, maxUnavailable) {
		if err := c.deletePod(ctx, set, replicas[i]); err != nil {
			return status, err
		}
		status.CurrentReplicas--
	}
	return status, nil
}

// countStatus recounts the status counters over the pod lists
// (computeReplicaStatus).
func (c *Controller) countStatus(status *appsv1.StatefulSetStatus, st state, current, update *appsv1.ControllerRevision, lists ...[]*corev1.Pod) {
	status.Replicas, status.ReadyReplicas, status.AvailableReplicas, status.CurrentReplicas, status.UpdatedReplicas = 0, 0, 0, 0, 0
	for _, list := range lists {
		for _, p := range list {
			if isCreated(p) {
				status.Replicas++
			}
			if st.runningAndReady(p) {
				status.ReadyReplicas++
				if st.available(p) {
					status.AvailableReplicas++
				}
			}
			if isCreated(p) && !isTerminating(p) {
				rev := p.Labels[model.RevisionHashLabel]
				if rev == current.Name {
					status.CurrentReplicas++
				}
				if rev == update.Name {
					status.UpdatedReplicas++
				}
			}
		}
	}
}

// writeStatus completes a finished rolling update and writes the status when
// it differs from the set's.
func (c *Controller) writeStatus(ctx context.Context, set *appsv1.StatefulSet, status *appsv1.StatefulSetStatus) error {
	if set.Spec.UpdateStrategy.Type == appsv1.RollingUpdateStatefulSetStrategyType &&
		status.UpdatedReplicas == status.Replicas && status.ReadyReplicas == status.Replicas {
		status.CurrentReplicas = status.UpdatedReplicas
		status.CurrentRevision = status.UpdateRevision
	}
	s := set.Status
	if status.ObservedGeneration <= s.ObservedGeneration && status.Replicas == s.Replicas &&
		status.CurrentReplicas == s.CurrentReplicas && status.ReadyReplicas == s.ReadyReplicas &&
		status.UpdatedReplicas == s.UpdatedReplicas && status.CurrentRevision == s.CurrentRevision &&
		status.AvailableReplicas == s.AvailableReplicas && status.UpdateRevision == s.UpdateRevision {
		return nil
	}
	api := c.env.Client.AppsV1().StatefulSets(set.Namespace)
	for attempt := 0; ; attempt++ {
		next := set.DeepCopy()
		next.Status = *status
		_, err := api.UpdateStatus(ctx, next, metav1.UpdateOptions{})
		if err == nil || attempt == 1 {
			return err
		}
		fresh, gerr := api.Get(ctx, set.Name, metav1.GetOptions{})
		if gerr != nil {
			return err
		}
		set = fresh
	}
}
