package kubelet

import (
	"context"
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/equality"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/engine/control"
	"rollscope/model"
)

// maxStepsPerSync bounds how many steps one container catches up on in a
// single sync (after its node was NotReady for long, say); the rest follows
// in the next sync.
const maxStepsPerSync = 32

// Sync implements control.Controller: it moves one pod forward, or wakes the
// pods of a node that became Ready.
func (k *Kubelet) Sync(ctx context.Context, key string) error {
	if isNodeKey(key) {
		return k.syncNode(key)
	}
	pod, found, err := k.env.Listers.PodByKey(key)
	if err != nil {
		return fmt.Errorf("kubelet: read pod %s from the cache: %w", key, err)
	}
	if !found {
		k.forget(key)
		return nil
	}
	if !k.runs(pod) {
		return nil
	}
	node, found := k.node(pod.Spec.NodeName)
	if !found {
		// The node is gone; the pod garbage collector deletes its pods.
		return nil
	}
	if !node.ready {
		// A node whose kubelet is not up makes no progress; the node's own
		// key wakes its pods when it becomes Ready.
		return nil
	}
	prog := k.progressFor(key, pod)
	if pod.DeletionTimestamp != nil {
		return k.terminate(ctx, key, pod)
	}
	if pod.Status.Phase == corev1.PodSucceeded || pod.Status.Phase == corev1.PodFailed {
		return nil
	}
	return k.advance(ctx, key, pod, node, prog)
}

// syncNode wakes every pod of a node that is Ready.
func (k *Kubelet) syncNode(name string) error {
	if !k.serves(name) || k.queue == nil {
		return nil
	}
	node, err := k.env.Listers.Nodes.Get(name)
	if err != nil && apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("kubelet: read node %s from the cache: %w", name, err)
	}
	if !model.NodeReady(node) {
		return nil
	}
	pods, err := k.env.Listers.PodIndex.ByIndex(control.IndexByNode, name)
	if err != nil {
		return fmt.Errorf("kubelet: list the pods of node %s: %w", name, err)
	}
	for _, obj := range pods {
		if key := control.Key(obj); key != "" {
			k.queue.Add(key)
		}
	}
	return nil
}

// advance moves a running pod's containers through every step that is due,
// writes the status when it changed and schedules the next step.
func (k *Kubelet) advance(ctx context.Context, key string, pod *corev1.Pod, node nodeFacts, prog *podProgress) error {
	now := k.env.Clock.Now()
	st := statusToWrite(&pod.Status, &k.status)
	if st.StartTime == nil {
		// First sight: the kubelet admits the pod and sets up its sandbox.
		st.StartTime = ptrTo(metav1.NewTime(now))
		if ip := node.hostIP; ip != "" {
			st.HostIP, st.HostIPs = ip, k.hostIPsOf(ip)
		}
		ip := k.nextPodIP()
		st.PodIP, st.PodIPs = ip, []corev1.PodIP{{IP: ip}}
		st.InitContainerStatuses = completedInitContainers(pod, now)
	}
	st.ContainerStatuses = alignContainerStatuses(pod, st.ContainerStatuses)

	var next time.Time
	var events []event
	var logs []logWrite
	for i := range pod.Spec.Containers {
		spec := &pod.Spec.Containers[i]
		im := k.image(spec.Image)
		c := &container{
			pod: pod, name: spec.Name, image: spec.Image, imageID: im.id, status: &st.ContainerStatuses[i],
			rule: im.rule, pull: &prog.containers[i].pull, jitter: prog.jitter,
			readiness: spec.ReadinessProbe, probed: &prog.containers[i].probed,
			started: st.StartTime.Time, restarts: pod.Spec.RestartPolicy != corev1.RestartPolicyNever, now: now,
			routine: k.routine,
		}
		due := catchUp(c)
		events = append(events, c.events...)
		logs = append(logs, c.logs...)
		if !due.IsZero() && (next.IsZero() || due.Before(next)) {
			next = due
		}
	}
	st.Phase = podPhase(pod, st.ContainerStatuses)
	setConditions(pod, st, now, &k.conditions)

	if err := k.writeStatus(ctx, key, pod, st); err != nil {
		return err
	}
	k.logs.write(pod.UID, logs)
	// Followers of a run that just ended stop once they see it.
	k.logs.poke()
	k.record(pod, events)
	k.requeue(key, next, now)
	return nil
}

// catchUp applies every step of c that is due and returns when the next one
// is (zero when nothing more will happen without a change to the pod).
func catchUp(c *container) time.Time {
	for range maxStepsPerSync {
		st, at := c.next()
		if st == stepNone {
			return time.Time{}
		}
		if at.After(c.now) {
			return at
		}
		c.apply(st, at)
	}
	return c.now
}

// writeStatus posts st as the pod's status if it differs from what the pod
// says, as the kubelet's status manager does.
func (k *Kubelet) writeStatus(ctx context.Context, key string, pod *corev1.Pod, st *corev1.PodStatus) error {
	if !model.PodStatusesDiffer(&pod.Status, st) && equality.Semantic.DeepEqual(&pod.Status, st) {
		return nil
	}
	// The cached pod names the write; st is given up to it.
	if err := control.WritePodStatus(ctx, k.pods.In(pod.Namespace), pod, st); err != nil {
		if apierrors.IsNotFound(err) {
			return nil
		}
		return fmt.Errorf("kubelet: update the status of pod %s (it is retried): %w", key, err)
	}
	return nil
}

// record emits the events of a sync: the Warnings, and the routine Normal
// ones (Pulling, Pulled, Created, Started) only with Options.RoutineEvents —
// the embedded cluster leaves them out, a large rollout would drown
// everything else in them.
func (k *Kubelet) record(pod *corev1.Pod, events []event) {
	if k.env.Events == nil {
		return
	}
	for _, e := range events {
		typ := corev1.EventTypeWarning
		if e.normal {
			typ = corev1.EventTypeNormal
		}
		k.env.Events.Eventf(pod, typ, e.reason, "%s", e.message)
	}
}

// hostIPsOf is the status.hostIPs of a pod on the node with address ip.
func (k *Kubelet) hostIPsOf(ip string) []corev1.HostIP {
	ips, ok := k.hostIPs[ip]
	if !ok {
		ips = []corev1.HostIP{{IP: ip}}
		k.hostIPs[ip] = ips
	}
	return ips
}
