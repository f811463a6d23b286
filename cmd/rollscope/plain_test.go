package main

import (
	"bytes"
	"context"
	"regexp"
	"strconv"
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
	p := newStatusPrinter(&out, "web", func(at time.Time) string { return at.Format("15:04:05") })
	at := time.Date(2026, 11, 21, 9, 0, 0, 0, time.UTC)
	synced := cluster.WatchStatus{Connected: true, Synced: true}
	for i, objs := range [][]runtime.Object{
		{plainDeployment("web", "1", 1, 4), plainDeployment("other", "1", 0, 4)},
		{plainDeployment("web", "2", 1, 4)}, // a new version, the same line
		{plainDeployment("web", "3", 2, 3), plainDeployment("other", "2", 2, 4)},
	} {
		p.batch(cluster.Batch{At: at.Add(time.Duration(i) * time.Second), Objects: objs, Watch: synced})
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
	p := newStatusPrinter(&out, "web", func(at time.Time) string { return at.Format("15:04:05") })
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
		p.batch(cluster.Batch{At: at.Add(time.Duration(i) * time.Second), Objects: objs, Watch: synced})
	}
	var why []string
	for _, l := range strings.Split(out.String(), "\n") {
		if strings.Contains(l, " why ") {
			why = append(why, l)
		}
	}
	want := []string{
		"[09:00:00] deployment/web why rolling out: 0 of 4 new pods created, 0 old pods still running",
		"[09:00:02] deployment/web why paused since 09:00 — resume with r, or undo with u",
	}
	if strings.Join(why, "\n") != strings.Join(want, "\n") {
		t.Errorf("blocker lines:\n%s\nwant:\n%s\nall output:\n%s", strings.Join(why, "\n"), strings.Join(want, "\n"), out.String())
	}
	if !strings.Contains(out.String(), `successfully rolled out`) {
		t.Errorf("the finished rollout's status line is missing:\n%s", out.String())
	}
}

func TestPlainEmbeddedRunPrintsStatusAndActionLines(t *testing.T) {
	out, banner := plainFrontend(t, 80)
	lines := strings.Split(strings.TrimSuffix(out.String(), "\n"), "\n")
	if len(lines) < 2 || banner.String() != "rollscope: embedded cluster, scenario \"frontend\" at 80x real time (Ctrl-C to stop)\n" {
		t.Fatalf("output:\n%s\nbanner: %s", out.String(), banner.String())
	}
	lines = append([]string{""}, lines...)
	status := regexp.MustCompile(`^\[ *\d+\.\ds\] deployment/frontend 25 desired · \d+ total · \d+ updated · \d+ available — \S.*$`)
	action := regexp.MustCompile(`^\[ *6\d\.\ds\] action setImage deployment/frontend: ok$`)
	why := regexp.MustCompile(`^\[ *\d+\.\ds\] deployment/frontend why \S.*$`)
	var actions int
	for _, l := range lines[1:] {
		switch {
		case action.MatchString(l):
			actions++
		case !status.MatchString(l) && !why.MatchString(l):
			t.Errorf("line %q is neither a status, blocker nor action line", l)
		}
	}
	if actions != 1 || !strings.Contains(out.String(), `— deployment "frontend" successfully rolled out`) {
		t.Errorf("want the rollout done and one set image; output:\n%s", out.String())
	}
}

// --until is virtual time, reached whatever the speed asks of the
// machine: at a million times real time the runner falls far behind, and
// the run still goes to 64s of virtual time — the set image at 60s is sent,
// at 60s — and no further.
func TestPlainUntilIsVirtualTimeHoweverFarBehindTheRunnerFalls(t *testing.T) {
	out, _ := plainFrontend(t, 1e6)
	if !regexp.MustCompile(`(?m)^\[   60\.0s\] action setImage deployment/frontend: ok$`).MatchString(out.String()) {
		t.Errorf("no set image at 60.0s before --until 64s; output:\n%s", out.String())
	}
	for _, m := range regexp.MustCompile(`(?m)^\[ *(\d+\.\d)s\]`).FindAllStringSubmatch(out.String(), -1) {
		if at, _ := strconv.ParseFloat(m[1], 64); at > 64 {
			t.Errorf("a line stamped %ss, after --until 64s; output:\n%s", m[1], out.String())
			break
		}
	}
}

// Through the real binary: a rollout to an image the registry does not
// have prints, once its new pods fail to pull, the header's blocker line.
func TestPlainPrintsWhyTheRolloutIsStuck(t *testing.T) {
	r := rollscope(t, "--plain", "--scenario", whyScenario(t, "why-pull"), "--speed", "40", "--until", "45s")
	if r.code != 0 {
		t.Fatalf("exit %d\nstdout:\n%s\nstderr:\n%s", r.code, r.stdout, r.stderr)
	}
	line := regexp.MustCompile(`(?m)^\[ *(\d+)\.\ds\] deployment/web why new image cannot be pulled — registry\.local/web:v5: (ErrImagePull|ImagePullBackOff) \(2 pods\)$`)
	m := line.FindStringSubmatch(r.stdout)
	if m == nil {
		t.Fatalf("no blocker line for the pull error:\n%s", r.stdout)
	}
	if m[1] < "20" || len(m[1]) != 2 {
		t.Errorf("the pull blocker is printed at %ss, before the set image at 20s:\n%s", m[1], r.stdout)
	}
	// Printed when it changes, not on every status line: never twice in a row.
	var prev string
	for _, l := range strings.Split(r.stdout, "\n") {
		_, why, ok := strings.Cut(l, "] deployment/web why ")
		if !ok {
			continue
		}
		if why == prev {
			t.Errorf("blocker printed twice in a row: %q\n%s", why, r.stdout)
		}
		prev = why
	}
}

// plainFrontend runs the frontend scenario in --plain to --until 64s at
// speed, returning its output and its banner.
func plainFrontend(t *testing.T, speed float64) (*bytes.Buffer, *bytes.Buffer) {
	t.Helper()
	f := &rootFlags{scenario: "frontend", speed: speed, until: 64 * time.Second}
	sc, err := loadScenario(f.scenario, f.until)
	if err != nil {
		t.Fatal(err)
	}
	var out, banner bytes.Buffer
	if err := runPlain(context.Background(), &out, &banner, f, sc, sc.Namespace, ""); err != nil {
		t.Fatal(err)
	}
	return &out, &banner
}
