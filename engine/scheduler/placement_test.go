package scheduler

import (
	"maps"
	"math/rand"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/types"
)

// An update the handler skips (samePlacement) must be one the node cache
// would have ignored: observed after the version before it, it changes
// nothing and frees nothing.
func TestSkippedUpdatesChangeNothingInTheNodeCache(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	shared := []corev1.Container{{Name: "web", Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("100m")}}}}
	version := func(prev *corev1.Pod) *corev1.Pod {
		p := &corev1.Pod{}
		if prev != nil {
			*p = *prev // a new version shares the stored one's spec, as the API's do
		} else {
			p.Namespace, p.Name, p.UID, p.Spec.Containers = "ns", "p", "u1", shared
		}
		switch r.Intn(8) {
		case 0:
			p.Spec.NodeName = []string{"", "n1", "n2"}[r.Intn(3)]
		case 1:
			p.Status.Phase = []corev1.PodPhase{corev1.PodRunning, corev1.PodSucceeded}[r.Intn(2)]
		case 2:
			p.Spec.Containers = append([]corev1.Container(nil), shared...)
			p.Spec.Containers[0].Resources.Requests = corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("200m")}
		case 3:
			p.UID = types.UID([]string{"u1", "u2"}[r.Intn(2)])
		default:
			p.Status.PodIP = "10.0.0.1" // a status write
		}
		return p
	}
	skipped := 0
	for range 2000 {
		c := newNodeCache()
		var prev *corev1.Pod
		for range 20 {
			cur := version(prev)
			if samePlacement(prev, cur) {
				skipped++
				placed, used := maps.Clone(c.placed), *c.usage(cur.Spec.NodeName)
				if c.observePod(nameOf(cur), cur) {
					t.Fatalf("a skipped update freed room: %+v after %+v", cur, prev)
				}
				if !maps.Equal(placed, c.placed) || used != *c.usage(cur.Spec.NodeName) {
					t.Fatalf("a skipped update changed the cache: %+v after %+v", cur, prev)
				}
			} else {
				c.observePod(nameOf(cur), cur)
			}
			prev = cur
		}
	}
	if skipped == 0 {
		t.Fatal("no update was skipped")
	}
}
