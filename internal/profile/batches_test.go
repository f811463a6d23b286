package profile

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/model/cluster"
)

// Each ReplicaSet a batch brings is logged with its counts and how long the
// batch took from the watch's caches to the model; a batch of pods alone,
// and any other message, is not; the model comes back unwrapped.
func TestEachReplicaSetABatchBringsIsLogged(t *testing.T) {
	path := filepath.Join(t.TempDir(), "batches.txt")
	t.Setenv(BatchesEnv, path)
	m, unwrap, stop, err := Batches(counter{})
	if err != nil {
		t.Fatal(err)
	}
	replicas := int32(15201)
	rs := &appsv1.ReplicaSet{
		ObjectMeta: metav1.ObjectMeta{Name: "app-6769cfdc", Labels: map[string]string{appsv1.DefaultDeploymentUniqueLabelKey: "6769cfdc"}},
		Spec:       appsv1.ReplicaSetSpec{Replicas: &replicas},
		Status:     appsv1.ReplicaSetStatus{Replicas: 15201, ReadyReplicas: 202, AvailableReplicas: 201},
	}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "app-6769cfdc-x"}}
	read := time.Now().Add(-1500 * time.Millisecond)
	for _, msg := range []any{
		cluster.Batch{At: read, Objects: []runtime.Object{pod, rs}},
		cluster.Batch{At: read, Objects: []runtime.Object{pod}},
		"a key",
	} {
		m, _ = m.Update(msg)
	}
	stop()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) != 1 {
		t.Fatalf("%d lines for one ReplicaSet brought: %q", len(lines), b)
	}
	f := strings.Fields(lines[0])
	if len(f) != 7 || strings.Join(f[2:], " ") != "6769cfdc 15201 15201 202 201" {
		t.Errorf("line %q: want received, waited, the hash and desired, current, ready, available", lines[0])
	}
	if waited, err := strconv.Atoi(f[min(1, len(f)-1)]); err != nil || waited < 1500 || waited > 60_000 {
		t.Errorf("line %q: waited %q ms for a batch read 1.5 s before", lines[0], f[min(1, len(f)-1)])
	}
	if c, ok := unwrap(m).(counter); !ok || c.n != 3 {
		t.Errorf("unwrapped %#v, want the counter after three messages", unwrap(m))
	}
}
