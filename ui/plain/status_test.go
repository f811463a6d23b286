package plain

import (
	"bytes"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/model"
	"rollscope/model/cluster"
)

// plainDeployment is a deployment as the watch hands it to the printer.
func plainDeployment(name, rv string, updated, available int32) *appsv1.Deployment {
	replicas := int32(4)
	return &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: name, ResourceVersion: rv, Generation: 1},
		Spec:       appsv1.DeploymentSpec{Replicas: &replicas},
		Status: appsv1.DeploymentStatus{ObservedGeneration: 1, Replicas: max(updated, 4) + 1, UpdatedReplicas: updated,
			AvailableReplicas: available},
	}
}

func TestPlainPrinterPrintsAChangedLineOnceWithItsStamp(t *testing.T) {
	var out bytes.Buffer
	p := NewStatus(&out, "web", func(at time.Time) string { return at.Format("15:04:05") })
	at := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	synced := cluster.WatchStatus{Connected: true, Synced: true}
	for i, objs := range [][]runtime.Object{
		{plainDeployment("web", "1", 1, 4), plainDeployment("other", "1", 0, 4)},
		{plainDeployment("web", "2", 1, 4)}, // a new version, the same line
		{plainDeployment("web", "3", 2, 3), plainDeployment("other", "2", 2, 4)},
	} {
		p.Batch(cluster.Batch{At: at.Add(time.Duration(i) * time.Second), Objects: objs, Watch: synced})
	}
	want := `[09:00:00] deployment/web 4 desired · 5 total · 1 updated · 4 available — Waiting for deployment "web" rollout to finish: 1 out of 4 new replicas have been updated...
[09:00:00] deployment/web why rolling out: 0 of 4 new pods created, 0 old pods still running
[09:00:02] deployment/web 4 desired · 5 total · 2 updated · 3 available — Waiting for deployment "web" rollout to finish: 2 out of 4 new replicas have been updated...
`
	if out.String() != want {
		t.Errorf("printed:\n%s\nwant:\n%s", out.String(), want)
	}
}

// The blocker line is printed, in the header's words after "why", when it
// names something else; a line that only its clock changes is not printed
// again, and a finished rollout has none.
func TestPlainPrinterPrintsTheBlockerWhenItChanges(t *testing.T) {
	var out bytes.Buffer
	p := NewStatus(&out, "web", func(at time.Time) string { return at.Format("15:04:05") })
	at := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	synced := cluster.WatchStatus{Connected: true, Synced: true}
	paused := plainDeployment("web", "3", 1, 4)
	paused.Spec.Paused = true
	paused.Status.Conditions = []appsv1.DeploymentCondition{{Type: appsv1.DeploymentProgressing,
		Status: "Unknown", Reason: model.ReasonDeploymentPaused, LastTransitionTime: metav1.NewTime(at.Add(2 * time.Second))}}
	done := plainDeployment("web", "4", 4, 4)
	done.Status.Replicas = 4
	for i, objs := range [][]runtime.Object{
		{plainDeployment("web", "1", 1, 4)},
		{plainDeployment("web", "2", 1, 4)}, // the same blocker
		{paused},
		{done},
	} {
		p.Batch(cluster.Batch{At: at.Add(time.Duration(i) * time.Second), Objects: objs, Watch: synced})
	}
	var why []string
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.Contains(l, " why ") {
			why = append(why, l)
		}
	}
	want := []string{
		"[09:00:00] deployment/web why rolling out: 0 of 4 new pods created, 0 old pods still running",
		"[09:00:02] deployment/web why paused since 09:00:02 — resume, or undo",
	}
	if strings.Join(why, "\n") != strings.Join(want, "\n") {
		t.Errorf("blocker lines:\n%s\nwant:\n%s\nall output:\n%s", strings.Join(why, "\n"), strings.Join(want, "\n"), out.String())
	}
	if !strings.Contains(out.String(), `successfully rolled out`) {
		t.Errorf("the finished rollout's status line is missing:\n%s", out.String())
	}
}
