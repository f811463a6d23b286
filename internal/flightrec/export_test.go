package flightrec

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
	"rollscope/model"
)

// A recorded mid-rollout moment exported as a scenario loads, and runs
// from the same state: the deployment's template and size, its two
// ReplicaSets with their revisions and their split of the pods.
func TestExportedScenarioStartsFromTheRecordedMoment(t *testing.T) {
	path, mid, was := recordWeb(t)
	out := filepath.Join(t.TempDir(), "at-0310.yaml")
	if err := ExportScenario(path, mid.Format(time.TimeOnly), out); err != nil {
		t.Fatal(err)
	}
	if keep := os.Getenv("KEEP_EXPORT"); keep != "" {
		b, _ := os.ReadFile(out)
		_ = os.WriteFile(keep, b, 0o644)
	}
	sc, err := scenario.Load(out)
	if err != nil {
		t.Fatalf("the exported scenario does not load: %v", err)
	}
	var d *appsv1.Deployment
	rss := map[string]*appsv1.ReplicaSet{}
	for _, obj := range sc.Objects {
		switch o := obj.(type) {
		case *appsv1.Deployment:
			d = o
		case *appsv1.ReplicaSet:
			rss[o.Name] = o
		}
	}
	if d == nil || d.Name != "web" || *d.Spec.Replicas != 10 || d.Spec.Template.Spec.Containers[0].Image != "app:v2" {
		t.Fatalf("exported deployment: %+v", d)
	}
	if len(sc.NodeGroups) != 1 || sc.NodeGroups[0].Size != 3 {
		t.Errorf("exported nodes: %+v, want one group of the 3 recorded", sc.NodeGroups)
	}
	clock := sim.NewClock(embedded.Epoch)
	cl, err := embedded.Start(context.Background(), memapi.New(memapi.Options{Clock: clock, Seed: 1}), clock, sc, embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Runner.Close()
	// Long enough for every pod to be created and bound, short of the
	// next step of the rollout (the new pods' minReadySeconds).
	if _, err := cl.Runner.Run(context.Background(), sim.RunOptions{Until: 2 * time.Second}); err != nil {
		t.Fatal(err)
	}
	got := snapshotOf(liveObjects(t, cl.Client))
	if !equalMaps(got.revisions, was.revisions) || !equalMaps(got.replicas, was.replicas) {
		t.Errorf("the scenario's ReplicaSets: revisions %v, replicas %v; recorded: %v, %v", got.revisions, got.replicas, was.revisions, was.replicas)
	}
	perRS := map[string]int{}
	for _, obj := range liveObjects(t, cl.Client) {
		if p, ok := obj.(*corev1.Pod); ok {
			perRS[p.Labels["pod-template-hash"]]++
		}
	}
	for name, n := range was.replicas {
		if hash := name[strings.LastIndex(name, "-")+1:]; perRS[hash] != int(n) {
			t.Errorf("ReplicaSet %s has %d pods in the scenario, %d recorded", name, perRS[hash], n)
		}
	}
	dep, _ := cl.Runner.Listers().Deployments.Deployments("default").Get("web")
	if dep == nil || dep.Annotations[model.RevisionAnnotation] != "2" {
		t.Errorf("the deployment's revision in the scenario: %v, want 2 as recorded", dep)
	}
}

func equalMaps[V comparable](a, b map[string]V) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

// An output that cannot be written, or a moment the recording does not
// reach, is one line of bad input and writes nothing.
func TestExportRefusesWhatItCannotDo(t *testing.T) {
	path, mid, _ := recordWeb(t)
	var bad interface{ BadInput() bool }
	missing := filepath.Join(t.TempDir(), "no-such-dir", "out.yaml")
	err := ExportScenario(path, mid.Format(time.TimeOnly), missing)
	if err == nil || !errors.As(err, &bad) || strings.Contains(err.Error(), "\n") || !strings.Contains(err.Error(), missing) {
		t.Errorf("unwritable output: %v", err)
	}
	if _, statErr := os.Stat(missing); statErr == nil {
		t.Error("something was written")
	}
	out := filepath.Join(t.TempDir(), "out.yaml")
	err = ExportScenario(path, "05:00:00", out)
	if err == nil || !errors.As(err, &bad) || !strings.Contains(err.Error(), "not in the recording") {
		t.Errorf("a moment outside the recording: %v", err)
	}
	if _, statErr := os.Stat(out); statErr == nil {
		t.Error("a scenario was written for a moment outside the recording")
	}
}
