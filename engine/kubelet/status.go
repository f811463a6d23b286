package kubelet

import (
	"fmt"
	"slices"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// kubeletConditions are the pod conditions the kubelet owns, in the order it
// writes them; conditions owned by others (PodScheduled, DisruptionTarget,
// readiness gates) follow in their own order.
var kubeletConditions = []corev1.PodConditionType{
	corev1.PodReadyToStartContainers, corev1.PodInitialized, corev1.PodReady, corev1.ContainersReady,
}

// statusToWrite starts the status a sync writes from the pod's. The kubelet
// replaces container states (and every other part of a container status)
// rather than writing into them, so the container statuses are copied one
// level deep: their states are shared with the pod read from the cache,
// which nobody modifies (the store truncates times in place only when they
// have fractions, which a stored time never has). The rest is shared too:
// the conditions are rebuilt by setConditions, which every write goes
// through, and the start time and IPs are only ever replaced. A full deep
// copy cost a fifth of a kubelet sync.
//
// The status is built in room, which the caller reuses from sync to sync:
// a write copies the status it is given (the store into its new version, a
// client into its request), so only its lists outlive the sync.
func statusToWrite(have, room *corev1.PodStatus) *corev1.PodStatus {
	*room = *have
	room.InitContainerStatuses = slices.Clone(have.InitContainerStatuses)
	room.ContainerStatuses = slices.Clone(have.ContainerStatuses)
	room.EphemeralContainerStatuses = slices.Clone(have.EphemeralContainerStatuses)
	return room
}

// alignContainerStatuses returns one status per container of the spec, in
// spec order, keeping what the pod status already says and starting the
// others as ContainerCreating. have is the sync's own copy: when it is
// aligned already, it is returned as it is.
func alignContainerStatuses(pod *corev1.Pod, have []corev1.ContainerStatus) []corev1.ContainerStatus {
	if aligned(pod, have) {
		return have
	}
	out := make([]corev1.ContainerStatus, len(pod.Spec.Containers))
	for i := range pod.Spec.Containers {
		c := &pod.Spec.Containers[i]
		if i < len(have) && have[i].Name == c.Name {
			out[i] = have[i]
			continue
		}
		found := false
		for j := range have {
			if have[j].Name == c.Name {
				out[i], found = have[j], true
				break
			}
		}
		if !found {
			out[i] = corev1.ContainerStatus{
				Name:    c.Name,
				Image:   c.Image,
				Started: ptrTo(false),
				State:   waiting(reasonContainerCreating, ""),
			}
		}
	}
	return out
}

func aligned(pod *corev1.Pod, have []corev1.ContainerStatus) bool {
	if len(have) != len(pod.Spec.Containers) {
		return false
	}
	for i := range have {
		if have[i].Name != pod.Spec.Containers[i].Name {
			return false
		}
	}
	return true
}

// completedInitContainers reports init containers as having run to
// completion when the pod started: the simulation gives them no time.
func completedInitContainers(pod *corev1.Pod, at time.Time) []corev1.ContainerStatus {
	if len(pod.Spec.InitContainers) == 0 {
		return nil
	}
	out := make([]corev1.ContainerStatus, len(pod.Spec.InitContainers))
	for i, c := range pod.Spec.InitContainers {
		out[i] = corev1.ContainerStatus{
			Name: c.Name, Image: c.Image, ImageID: imageID(c.Image), Ready: true, Started: ptrTo(false),
			ContainerID: containerID(string(pod.UID), c.Name, 0),
			State: corev1.ContainerState{Terminated: &corev1.ContainerStateTerminated{
				Reason: "Completed", StartedAt: metav1.NewTime(at), FinishedAt: metav1.NewTime(at),
				ContainerID: containerID(string(pod.UID), c.Name, 0),
			}},
		}
	}
	return out
}

// podPhase is Pending while a container has never started, then Running; a
// pod that never restarts containers fails once all of them have exited.
func podPhase(pod *corev1.Pod, statuses []corev1.ContainerStatus) corev1.PodPhase {
	exited := 0
	for i := range statuses {
		s := &statuses[i]
		switch {
		case s.State.Running != nil:
		case s.State.Terminated != nil:
			exited++
		case s.LastTerminationState.Terminated == nil:
			return corev1.PodPending
		}
	}
	if exited > 0 && exited == len(statuses) && pod.Spec.RestartPolicy == corev1.RestartPolicyNever {
		return corev1.PodFailed
	}
	return corev1.PodRunning
}

// setConditions writes the kubelet's pod conditions from the container
// statuses, changing a condition's lastTransitionTime only when its status
// changes.
func setConditions(pod *corev1.Pod, st *corev1.PodStatus, now time.Time, lists *conditionLists) {
	// The API server keeps whole seconds (RFC 3339 without fractions), so
	// the times are written as they will be stored: then pods whose
	// conditions changed within the same second write equal lists, which
	// share one.
	now = now.Truncate(time.Second)
	containersReady := condition{status: corev1.ConditionTrue}
	var had string // the message written before, kept when it still says the same
	if c := findCondition(st.Conditions, corev1.ContainersReady); c != nil {
		had = c.Message
	}
	if msg, ok := unreadyMessage(st.ContainerStatuses, had); ok {
		containersReady = condition{corev1.ConditionFalse, "ContainersNotReady", msg}
	}
	ready := containersReady
	if ready.status == corev1.ConditionTrue {
		ready = readinessGates(pod, st)
	}
	want := func(t corev1.PodConditionType) (condition, bool) {
		switch t {
		case corev1.PodReadyToStartContainers, corev1.PodInitialized:
			return condition{status: corev1.ConditionTrue}, true
		case corev1.PodReady:
			return ready, true
		case corev1.ContainersReady:
			return containersReady, true
		}
		return condition{}, false
	}
	scheduled := false
	for _, c := range st.Conditions {
		if _, owned := want(c.Type); !owned {
			scheduled = scheduled || c.Type == corev1.PodScheduled
		}
	}
	// Built on the stack first: most writes change a container's state but
	// none of the conditions, and then the pod's own list is kept (stored
	// times are never written again, so sharing it with the stored pod is
	// safe) instead of storing an equal copy.
	build := func(out []corev1.PodCondition) []corev1.PodCondition {
		for _, t := range kubeletConditions {
			w, _ := want(t)
			out = append(out, w.apply(t, findCondition(st.Conditions, t), now))
		}
		for _, c := range st.Conditions {
			if _, owned := want(c.Type); !owned {
				out = append(out, c)
			}
		}
		if !scheduled {
			// The pod is bound, so it was scheduled even if no scheduler said so.
			out = append(out, corev1.PodCondition{Type: corev1.PodScheduled, Status: corev1.ConditionTrue, LastTransitionTime: metav1.NewTime(now)})
		}
		return out
	}
	var onStack [8]corev1.PodCondition // more conditions grow it on the heap
	if out := build(onStack[:0]); !slices.Equal(out, st.Conditions) {
		st.Conditions = lists.share(out)
	}
}

// conditionLists are the condition lists the kubelet wrote last. Pods of a
// rollout start, become ready and stop in batches, at the same virtual
// instants, so many write the very same list: they share one (stored lists
// are never modified) instead of each holding a copy of about 600 bytes —
// 65 MB held, and 100,000 objects for the collector to mark, in a
// 100,000-replica rollout.
type conditionLists struct {
	recent [8][]corev1.PodCondition
	next   int // the slot the next new list replaces
}

// share returns a list equal to out: one written recently, or a copy.
func (l *conditionLists) share(out []corev1.PodCondition) []corev1.PodCondition {
	for _, have := range l.recent {
		if slices.Equal(have, out) && have != nil {
			return have
		}
	}
	// Sized exactly: the status is stored as it is built, so spare
	// capacity would be kept for every version of every pod.
	list := append(make([]corev1.PodCondition, 0, len(out)), out...)
	l.recent[l.next] = list
	l.next = (l.next + 1) % len(l.recent)
	return list
}

// unreadyMessage is the kubelet's "containers with unready status: [a b]",
// and false when every container is ready. Every sync of a starting or
// stopping pod asks for it: when had, the message written before, already
// says it, had is returned, and otherwise it is built in one allocation.
func unreadyMessage(statuses []corev1.ContainerStatus, had string) (string, bool) {
	const prefix = "containers with unready status: ["
	size, unready := len(prefix)+1, 0
	for i := range statuses {
		if !statuses[i].Ready {
			size += len(statuses[i].Name) + 1
			unready++
		}
	}
	if unready == 0 {
		return "", false
	}
	if len(had) == size-1 && strings.HasPrefix(had, prefix) && had[len(had)-1] == ']' && sameUnread(had[len(prefix):len(had)-1], statuses) {
		return had, true
	}
	var b strings.Builder
	b.Grow(size)
	b.WriteString(prefix)
	written := 0
	for i := range statuses {
		if !statuses[i].Ready {
			if written > 0 {
				b.WriteByte(' ')
			}
			b.WriteString(statuses[i].Name)
			written++
		}
	}
	b.WriteByte(']')
	return b.String(), true
}

// sameUnread reports whether names is the unready containers' names, each
// followed by one space but the last, as unreadyMessage writes them.
func sameUnread(names string, statuses []corev1.ContainerStatus) bool {
	rest := names
	first := true
	for i := range statuses {
		if statuses[i].Ready {
			continue
		}
		if !first {
			if rest == "" || rest[0] != ' ' {
				return false
			}
			rest = rest[1:]
		}
		first = false
		if !strings.HasPrefix(rest, statuses[i].Name) {
			return false
		}
		rest = rest[len(statuses[i].Name):]
	}
	return rest == ""
}

// condition is the wanted state of one pod condition.
type condition struct {
	status          corev1.ConditionStatus
	reason, message string
}

func (w condition) apply(t corev1.PodConditionType, have *corev1.PodCondition, now time.Time) corev1.PodCondition {
	c := corev1.PodCondition{Type: t, Status: w.status, Reason: w.reason, Message: w.message, LastTransitionTime: metav1.NewTime(now)}
	if have != nil && have.Status == w.status {
		c.LastTransitionTime = have.LastTransitionTime
		c.LastProbeTime = have.LastProbeTime
	}
	return c
}

// readinessGates is the Ready condition of a pod whose containers are all
// ready: it still waits for every readiness gate's condition to be True.
func readinessGates(pod *corev1.Pod, st *corev1.PodStatus) condition {
	for _, g := range pod.Spec.ReadinessGates {
		c := findCondition(st.Conditions, g.ConditionType)
		if c == nil {
			return condition{corev1.ConditionFalse, "ReadinessGatesNotReady",
				fmt.Sprintf("corresponding condition of pod readiness gate %q does not exist.", g.ConditionType)}
		}
		if c.Status != corev1.ConditionTrue {
			return condition{corev1.ConditionFalse, "ReadinessGatesNotReady",
				fmt.Sprintf("the status of pod readiness gate %q is not \"True\", but %v", g.ConditionType, c.Status)}
		}
	}
	return condition{status: corev1.ConditionTrue}
}

func findCondition(cs []corev1.PodCondition, t corev1.PodConditionType) *corev1.PodCondition {
	for i := range cs {
		if cs[i].Type == t {
			return &cs[i]
		}
	}
	return nil
}

// hostIP is the node's InternalIP, which is what the kubelet reports.
func hostIP(node *corev1.Node) string {
	for _, a := range node.Status.Addresses {
		if a.Type == corev1.NodeInternalIP {
			return a.Address
		}
	}
	return ""
}
