package main

import (
	"bytes"
	"context"
	"regexp"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/model"
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
	p := newStatusPrinter(&out, "web", func(at time.Time) string { return at.Format("15:04:05") })
	at := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	synced := model.WatchStatus{Connected: true, Synced: true}
	for i, objs := range [][]runtime.Object{
		{plainDeployment("web", "1", 1, 4), plainDeployment("other", "1", 0, 4)},
		{plainDeployment("web", "2", 1, 4)}, // a new version, the same line
		{plainDeployment("web", "3", 2, 3), plainDeployment("other", "2", 2, 4)},
	} {
		p.batch(model.Batch{At: at.Add(time.Duration(i) * time.Second), Objects: objs, Watch: synced})
	}
	want := `[09:00:00] deployment/web 4 desired · 5 total · 1 updated · 4 available — Waiting for deployment "web" rollout to finish: 1 out of 4 new replicas have been updated...
[09:00:02] deployment/web 4 desired · 5 total · 2 updated · 3 available — Waiting for deployment "web" rollout to finish: 2 out of 4 new replicas have been updated...
`
	if out.String() != want {
		t.Errorf("printed:\n%s\nwant:\n%s", out.String(), want)
	}
}

func TestPlainEmbeddedRunPrintsStatusAndActionLines(t *testing.T) {
	f := &rootFlags{scenario: "frontend", speed: 80, until: 64 * time.Second}
	sc, err := loadScenario(f.scenario, f.until)
	if err != nil {
		t.Fatal(err)
	}
	var out, banner bytes.Buffer
	if err := runPlain(context.Background(), &out, &banner, f, sc, sc.Namespace, ""); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) < 2 || banner.String() != "rollscope: embedded cluster, scenario \"frontend\" at 80x real time (Ctrl-C to stop)\n" {
		t.Fatalf("output:\n%s\nbanner: %s", out.String(), banner.String())
	}
	lines = append([]string{""}, lines...)
	status := regexp.MustCompile(`^\[ *\d+\.\ds\] deployment/frontend 25 desired · \d+ total · \d+ updated · \d+ available — \S.*$`)
	action := regexp.MustCompile(`^\[ *6\d\.\ds\] action setImage deployment/frontend: ok$`)
	var actions int
	for _, l := range lines[1:] {
		switch {
		case action.MatchString(l):
			actions++
		case !status.MatchString(l):
			t.Errorf("line %q is neither a status line nor an action line", l)
		}
	}
	if actions != 1 || !strings.Contains(out.String(), `— deployment "frontend" successfully rolled out`) {
		t.Errorf("want the rollout done and one set image; output:\n%s", out.String())
	}
}
