package flightrec

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"

	"rollscope/model/cluster"
)

// TestPostmortemTellsTheTimelineWithItsSenders records a Deployment that
// is paused from the console, by alice, and loses its availability.
func TestPostmortemTellsTheTimelineWithItsSenders(t *testing.T) {
	path := filepath.Join(t.TempDir(), "rec")
	r, err := Open(path, false, "alice")
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Date(2026, 3, 1, 3, 12, 0, 0, time.UTC)
	d := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Namespace: "shop", Name: "web", ResourceVersion: "1", UID: "d"},
		Spec:   appsv1.DeploymentSpec{Replicas: ptr.To(int32(3))},
		Status: appsv1.DeploymentStatus{Conditions: []appsv1.DeploymentCondition{{Type: appsv1.DeploymentAvailable, Status: "True", Reason: "MinimumReplicasAvailable"}}}}
	lost := d.DeepCopy()
	lost.ResourceVersion, lost.Status.Conditions[0].Status, lost.Status.Conditions[0].Reason = "2", "False", "MinimumReplicasUnavailable"
	synced := cluster.WatchStatus{Synced: true, Connected: true}
	send := r.Batches("prod", "shop", nil, func(cluster.Batch) {})
	send(cluster.Batch{At: t0, Objects: []runtime.Object{d}, Watch: synced})
	send(cluster.Batch{At: t0.Add(2 * time.Second), Objects: []runtime.Object{lost}, Watch: synced})
	r.w.Action("shop", "web", cluster.TimelineEntry{Time: t0.Add(3 * time.Second), Message: "paused the rollout"})
	if err := r.Close(); err != nil {
		t.Fatal(err)
	}

	var md bytes.Buffer
	if err := Postmortem(&md, path, "markdown"); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"# Recording of prod, 2026-03-01 03:12:00 – 2026-03-01 03:12:03", "## deploy/web in shop",
		"| 03:12:02 | condition: **Available=False MinimumReplicasUnavailable**", "| 03:12:03 | action: paused the rollout (sent by alice) |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("the markdown lacks %q:\n%s", want, md.String())
		}
	}
	var jl bytes.Buffer
	if err := Postmortem(&jl, path, "jsonl"); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(jl.String()), "\n")
	var last postmortemLine
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &last); err != nil || last.Kind != "action" || last.Sender != "alice" {
		t.Errorf("the last jsonl line %q: %+v, %v", lines[len(lines)-1], last, err)
	}
	if err := Postmortem(&jl, path, "html"); err == nil || !strings.Contains(err.Error(), "markdown or jsonl") {
		t.Errorf("--format html: %v", err)
	}
}
