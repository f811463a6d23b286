package memapi

import corev1 "k8s.io/api/core/v1"

// podQOS computes a pod's quality-of-service class as upstream does when
// the pod is created: BestEffort without any cpu or memory requests or
// limits, Guaranteed when every container limits both and requests equal
// limits, Burstable otherwise. Pod-level resources, when set, decide alone.
func podQOS(pod *corev1.Pod) corev1.PodQOSClass {
	requests, limits := corev1.ResourceList{}, corev1.ResourceList{}
	guaranteed := true
	add := func(sum corev1.ResourceList, list corev1.ResourceList) (found map[corev1.ResourceName]bool) {
		found = map[corev1.ResourceName]bool{}
		for name, q := range list {
			if name != corev1.ResourceCPU && name != corev1.ResourceMemory || q.Sign() <= 0 {
				continue
			}
			found[name] = true
			total := q.DeepCopy()
			if prev, ok := sum[name]; ok {
				total.Add(prev)
			}
			sum[name] = total
		}
		return found
	}
	if pod.Spec.Resources != nil {
		add(requests, pod.Spec.Resources.Requests)
		found := add(limits, pod.Spec.Resources.Limits)
		guaranteed = found[corev1.ResourceCPU] && found[corev1.ResourceMemory]
	} else {
		for _, list := range [][]corev1.Container{pod.Spec.Containers, pod.Spec.InitContainers} {
			for _, c := range list {
				add(requests, c.Resources.Requests)
				found := add(limits, c.Resources.Limits)
				if !found[corev1.ResourceCPU] || !found[corev1.ResourceMemory] {
					guaranteed = false
				}
			}
		}
	}
	if len(requests) == 0 && len(limits) == 0 {
		return corev1.PodQOSBestEffort
	}
	if guaranteed {
		for name, req := range requests {
			if lim, ok := limits[name]; !ok || lim.Cmp(req) != 0 {
				guaranteed = false
				break
			}
		}
	}
	if guaranteed && len(requests) == len(limits) {
		return corev1.PodQOSGuaranteed
	}
	return corev1.PodQOSBurstable
}
