package plain

import (
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/model/cluster"
)

// --plain says on stderr when the API server stops answering and when it
// answers again, once each, and nothing while the state holds.
func TestPlainWatchLine(t *testing.T) {
	live := cluster.WatchStatus{Synced: true, Connected: true}
	frozen := cluster.WatchStatus{Synced: true, Unanswered: true, Problem: "no answer within 2s"}
	lost := cluster.WatchStatus{Synced: true, Problem: "connection refused"}
	for _, tc := range []struct {
		name     string
		was, now cluster.WatchStatus
		want     string
	}{
		{"frozen", live, frozen, "the API server is not answering (no answer within 2s)"},
		{"still frozen", frozen, frozen, ""},
		{"answers again", frozen, live, "the API server answers again"},
		{"watch lost", live, lost, "watch lost (connection refused)"},
		{"first batch", cluster.WatchStatus{}, live, ""},
		{"steady", live, live, ""},
	} {
		got := WatchLine(tc.was, tc.now)
		if (tc.want == "") != (got == "") || !strings.Contains(got, tc.want) {
			t.Errorf("%s: %q, want %q", tc.name, got, tc.want)
		}
	}
}

// --plain says a deployment it followed was deleted, and when; and on
// stderr that the namespace watched does not exist.
func TestPlainSaysWhatIsGone(t *testing.T) {
	var out, errOut strings.Builder
	p := NewStatus(&out, "", func(at time.Time) string { return at.Format("15:04:05") })
	p.ErrOut, p.Namespace = &errOut, "shop"
	at := time.Date(2026, 11, 24, 9, 0, 0, 0, time.UTC)
	synced := cluster.WatchStatus{Synced: true, Connected: true}
	replicas := int32(1)
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web", UID: "u1", ResourceVersion: "1"},
		Spec: appsv1.DeploymentSpec{Replicas: &replicas}}
	shop := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "shop"}}
	p.Batch(cluster.Batch{At: at, Watch: synced, Objects: []runtime.Object{shop, d}})
	p.Batch(cluster.Batch{At: at.Add(time.Minute), Watch: synced, Deleted: []cluster.ObjectRef{{Kind: "Deployment", Namespace: "shop", Name: "web"}}})
	if !strings.HasSuffix(out.String(), "[09:01:00] deployment/web deleted\n") {
		t.Errorf("stdout:\n%s", out.String())
	}
	if errOut.Len() != 0 {
		t.Errorf("stderr with the namespace there: %q", errOut.String())
	}
	p.Batch(cluster.Batch{At: at.Add(2 * time.Minute), Watch: synced, Deleted: []cluster.ObjectRef{{Kind: "Namespace", Name: "shop"}}})
	p.Batch(cluster.Batch{At: at.Add(3 * time.Minute), Watch: synced, Deleted: []cluster.ObjectRef{{Kind: "Namespace", Name: "shop"}}})
	if want := "[09:02:00] rollscope: namespace \"shop\" does not exist — nothing to follow until it is created\n"; errOut.String() != want {
		t.Errorf("stderr %q, want %q once", errOut.String(), want)
	}
}
