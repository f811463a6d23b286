package kubelet

import (
	"math/rand"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// A message kept from the last write must be the one the kubelet would
// write now, whatever was written before.
func TestUnreadyMessageKeepsOnlyWhatItWouldWrite(t *testing.T) {
	r := rand.New(rand.NewSource(1))
	names := []string{"a", "b", "ab", "web", "web-2", ""}
	var had []string
	for range 20000 {
		statuses := make([]corev1.ContainerStatus, r.Intn(4))
		for i := range statuses {
			statuses[i] = corev1.ContainerStatus{Name: names[r.Intn(len(names))], Ready: r.Intn(2) == 0}
		}
		want, wantOK := unreadyMessage(statuses, "")
		for _, h := range append(had, want, "", "containers with unready status: [", "containers with unready status: []") {
			if got, ok := unreadyMessage(statuses, h); got != want || ok != wantOK {
				t.Fatalf("statuses %+v, had %q: %q %v, want %q %v", statuses, h, got, ok, want, wantOK)
			}
		}
		if len(had) > 20 {
			had = had[1:]
		}
		had = append(had, want)
	}
}
