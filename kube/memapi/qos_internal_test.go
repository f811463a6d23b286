package memapi

import (
	"math/rand"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

func podQOSByMaps(pod *corev1.Pod) corev1.PodQOSClass {
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

// podQOS must class every pod as podQOSByMaps, the map-based version it
// replaced (upstream's shape), does.
func TestPodQOSAgreesWithTheMapVersion(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	quantities := []string{"0", "-1", "100m", "0.1", "1", "128Mi", "134217728", "1Gi"}
	list := func() corev1.ResourceList {
		l := corev1.ResourceList{}
		for _, name := range []corev1.ResourceName{corev1.ResourceCPU, corev1.ResourceMemory, corev1.ResourceEphemeralStorage} {
			if r.Intn(3) > 0 {
				l[name] = resource.MustParse(quantities[r.Intn(len(quantities))])
			}
		}
		return l
	}
	containers := func(n int) []corev1.Container {
		out := make([]corev1.Container, n)
		for i := range out {
			out[i].Resources = corev1.ResourceRequirements{Requests: list(), Limits: list()}
			if r.Intn(3) == 0 { // guaranteed-looking
				out[i].Resources.Requests = out[i].Resources.Limits
			}
		}
		return out
	}
	seen := map[corev1.PodQOSClass]int{}
	for range 20000 {
		p := &corev1.Pod{Spec: corev1.PodSpec{Containers: containers(1 + r.Intn(2)), InitContainers: containers(r.Intn(2))}}
		if r.Intn(8) == 0 {
			p.Spec.Resources = &corev1.ResourceRequirements{Requests: list(), Limits: list()}
		}
		got, want := podQOS(p), podQOSByMaps(p)
		if got != want {
			t.Fatalf("pod %+v: %s, want %s", p.Spec, got, want)
		}
		seen[got]++
	}
	if len(seen) != 3 {
		t.Fatalf("classes seen: %v", seen)
	}
}
