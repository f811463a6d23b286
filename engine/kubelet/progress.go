package kubelet

import (
	"net/netip"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/types"
)

// podProgress is what the kubelet keeps in memory about one pod, beyond what
// the pod status says. Losing it (a restart) costs only what a real kubelet
// restart costs: a fresh jitter draw and a fresh image pull back-off.
type podProgress struct {
	// uid is the pod's: a pod that took a deleted one's name starts afresh.
	uid types.UID
	// jitter is drawn once per pod: each container's ready delay gets this
	// fraction of its rule's Jitter.
	jitter float64
	// containers is each container's, by container index. A pod of one
	// container keeps it in first: one object per pod for the collector to
	// mark, where a slice each for pulls and probes made three.
	containers []containerProgress
	first      [1]containerProgress
}

// containerProgress is what the kubelet remembers of one container.
type containerProgress struct {
	// pull holds the container's failed pulls.
	pull pullProgress
	// probed is when its readiness probe last failed, as the kubelet's
	// prober remembers it.
	probed time.Time
}

// pullProgress is the image pull back-off of one container.
type pullProgress struct {
	failures int       // consecutive failed pulls
	failedAt time.Time // when the last one failed
	retryAt  time.Time // when the next pull starts
}

// progressFor returns the pod's progress, creating it (and drawing its
// jitter) the first time the pod is seen.
func (k *Kubelet) progressFor(key string, pod *corev1.Pod) *podProgress {
	k.mu.Lock()
	defer k.mu.Unlock()
	p := k.progress[key]
	n := len(pod.Spec.Containers)
	if p == nil || p.uid != pod.UID {
		p = &podProgress{uid: pod.UID, jitter: k.env.Rand.Float64()}
		p.containers = p.first[:0]
		k.progress[key] = p
	}
	switch {
	case n <= cap(p.containers):
		p.containers = p.containers[:max(n, len(p.containers))]
	case len(p.containers) < n:
		p.containers = append(p.containers, make([]containerProgress, n-len(p.containers))...)
	}
	return p
}

// forget drops what the kubelet remembers about a pod that is gone.
func (k *Kubelet) forget(key string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if p, ok := k.progress[key]; ok {
		delete(k.progress, key)
		k.logs.forget(p.uid)
	}
}

// forgetUID drops the progress of a pod that was deleted by UID.
func (k *Kubelet) forgetUID(key string, uid types.UID) {
	k.mu.Lock()
	defer k.mu.Unlock()
	if p, ok := k.progress[key]; ok && p.uid == uid {
		// Another UID's progress was dropped when this key moved on to it.
		delete(k.progress, key)
	}
	k.logs.forget(uid)
}

// nextPodIP hands out pod IPs from 100.64.0.0/10 in order, so that a run is
// reproducible.
func (k *Kubelet) nextPodIP() string {
	k.mu.Lock()
	k.podIPs++
	n := k.podIPs
	k.mu.Unlock()
	v := uint32(100)<<24 | uint32(64)<<16 + n%(1<<22)
	return netip.AddrFrom4([4]byte{byte(v >> 24), byte(v >> 16), byte(v >> 8), byte(v)}).String()
}
