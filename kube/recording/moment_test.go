package recording

import (
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/model/cluster"
	rec "rollscope/model/recording"
)

// The objects at a moment are each one's last version up to it: none of
// a later one, none deleted by then, no Event; owners before what they
// own.
func TestObjectsAtAMoment(t *testing.T) {
	synced := cluster.WatchStatus{Synced: true, Connected: true}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web-1", CreationTimestamp: metav1.NewTime(t0.Add(-time.Hour))}}
	node := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}}
	ev := &corev1.Event{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web.1"}, Reason: "ScalingReplicaSet"}
	batches := append([]cluster.Batch{{At: t0.Add(-time.Second), Objects: []runtime.Object{pod, node, ev}, Watch: synced}}, threeBatches()...)
	tape, err := Open(record(t, rec.Header{Context: "prod"}, batches...))
	if err != nil {
		t.Fatal(err)
	}
	kinds := func(objs []runtime.Object) (names []string) {
		for _, o := range objs {
			k, _ := kindOf(o)
			names = append(names, k)
		}
		return names
	}
	at := tape.ObjectsAt(t0.Add(time.Second))
	if got := kinds(at); len(got) != 3 || got[0] != "Node" || got[1] != "Deployment" || got[2] != "Pod" {
		t.Fatalf("at +1s: %v, want Node, Deployment, Pod", got)
	}
	if d := at[1].(*appsv1.Deployment); *d.Spec.Replicas != 5 {
		t.Errorf("at +1s the deployment has %d replicas, want its second version's 5", *d.Spec.Replicas)
	}
	if p := at[2].(*corev1.Pod); !p.CreationTimestamp.Time.Equal(t0.Add(-time.Hour)) {
		t.Errorf("the pod's creation time is %v: its age is lost", p.CreationTimestamp)
	}
	if got := kinds(tape.ObjectsAt(t0.Add(2 * time.Second))); len(got) != 2 {
		t.Errorf("after the deployment's deletion: %v, want Node, Pod", got)
	}
	if got := tape.ObjectsAt(t0.Add(-time.Minute)); len(got) != 0 {
		t.Errorf("before the recording: %v", kinds(got))
	}
}
