package scheduler

import (
	corev1 "k8s.io/api/core/v1"
)

// amount is what a pod asks of a node, or what a node offers: milli-CPUs,
// bytes of memory, and a number of pods.
type amount struct {
	cpu, memory, pods int64
}

func (a amount) plus(b amount) amount {
	return amount{a.cpu + b.cpu, a.memory + b.memory, a.pods + b.pods}
}

func (a amount) minus(b amount) amount {
	return amount{a.cpu - b.cpu, a.memory - b.memory, a.pods - b.pods}
}

func fromList(l corev1.ResourceList) amount {
	var a amount
	if q, ok := l[corev1.ResourceCPU]; ok {
		a.cpu = q.MilliValue()
	}
	if q, ok := l[corev1.ResourceMemory]; ok {
		a.memory = q.Value()
	}
	if q, ok := l[corev1.ResourcePods]; ok {
		a.pods = q.Value()
	}
	return a
}

func maxOf(a, b amount) amount {
	return amount{max(a.cpu, b.cpu), max(a.memory, b.memory), max(a.pods, b.pods)}
}

// podRequests is the cpu and memory a pod reserves on its node, counted as
// upstream does: app containers and sidecars (restartable init containers)
// run together; each ordinary init container runs alone next to the sidecars
// started before it, so only the largest such moment counts; pod overhead is
// added on top. The pod itself counts as one pod.
func podRequests(p *corev1.Pod) amount {
	var running amount
	for _, c := range p.Spec.Containers {
		running = running.plus(fromList(c.Resources.Requests))
	}
	var sidecars, initPeak amount
	for _, c := range p.Spec.InitContainers {
		r := fromList(c.Resources.Requests)
		r.pods = 0
		if c.RestartPolicy != nil && *c.RestartPolicy == corev1.ContainerRestartPolicyAlways {
			sidecars = sidecars.plus(r)
			initPeak = maxOf(initPeak, sidecars)
			continue
		}
		initPeak = maxOf(initPeak, sidecars.plus(r))
	}
	total := maxOf(running.plus(sidecars), initPeak)
	total = total.plus(fromList(p.Spec.Overhead))
	total.pods = 1
	return total
}

// allocatable is what a node offers to pods. The API server defaults a
// missing status.allocatable to status.capacity; nodes written by hand in a
// scenario may rely on that.
func allocatable(n *corev1.Node) amount {
	if n.Status.Allocatable == nil {
		return fromList(n.Status.Capacity)
	}
	return fromList(n.Status.Allocatable)
}
