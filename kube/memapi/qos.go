package memapi

import (
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// podQOS computes a pod's quality-of-service class as upstream does when
// the pod is created: BestEffort without any cpu or memory requests or
// limits, Guaranteed when every container limits both and requests equal
// limits, Burstable otherwise. Pod-level resources, when set, decide alone.
// Only cpu and memory count, so their sums are kept in two fields rather
// than in maps (every pod creation asks).
func podQOS(pod *corev1.Pod) corev1.PodQOSClass {
	var requests, limits qosSums
	guaranteed := true
	if pod.Spec.Resources != nil {
		requests.add(pod.Spec.Resources.Requests)
		cpu, memory := limits.add(pod.Spec.Resources.Limits)
		guaranteed = cpu && memory
	} else {
		for _, list := range [][]corev1.Container{pod.Spec.Containers, pod.Spec.InitContainers} {
			for i := range list {
				requests.add(list[i].Resources.Requests)
				if cpu, memory := limits.add(list[i].Resources.Limits); !cpu || !memory {
					guaranteed = false
				}
			}
		}
	}
	if requests.count() == 0 && limits.count() == 0 {
		return corev1.PodQOSBestEffort
	}
	if guaranteed {
		guaranteed = (!requests.hasCPU || limits.hasCPU && limits.cpu.Cmp(requests.cpu) == 0) &&
			(!requests.hasMemory || limits.hasMemory && limits.memory.Cmp(requests.memory) == 0)
	}
	if guaranteed && requests.count() == limits.count() {
		return corev1.PodQOSGuaranteed
	}
	return corev1.PodQOSBurstable
}

// qosSums are the positive cpu and memory quantities of some resource lists.
type qosSums struct {
	cpu, memory       resource.Quantity
	hasCPU, hasMemory bool
}

// add sums list's positive cpu and memory, and reports which it had.
func (s *qosSums) add(list corev1.ResourceList) (cpu, memory bool) {
	cpu = addPositive(&s.cpu, &s.hasCPU, list, corev1.ResourceCPU)
	memory = addPositive(&s.memory, &s.hasMemory, list, corev1.ResourceMemory)
	return cpu, memory
}

func addPositive(sum *resource.Quantity, has *bool, list corev1.ResourceList, name corev1.ResourceName) bool {
	q, ok := list[name]
	if !ok || q.Sign() <= 0 {
		return false
	}
	if *has {
		sum.Add(q)
	} else {
		*sum, *has = q.DeepCopy(), true
	}
	return true
}

func (s *qosSums) count() int {
	n := 0
	if s.hasCPU {
		n++
	}
	if s.hasMemory {
		n++
	}
	return n
}
