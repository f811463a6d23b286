package embedded_test

import (
	"bytes"
	"fmt"
	"math/rand"
	"os"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"

	"rollscope/model"
)

func TestBuiltinScenariosKeepTheRolloutInvariants(t *testing.T) {
	for _, name := range []string{"frontend", "canary", "crashloop", "node-upgrade"} {
		t.Run(name, func(t *testing.T) {
			var opts []func(*run)
			if name == "crashloop" {
				opts = append(opts, withFailingPods)
			}
			r := startRun(t, load(t, name), 0, opts...)
			r.requireNoViolations()
			if r.end != "quiescent" {
				t.Fatalf("run ended %q, want quiescent", r.end)
			}
		})
	}
}

func TestFrontendRollsLikeUpstream(t *testing.T) {
	r := startRun(t, load(t, "frontend"), 0)
	r.requireNoViolations()
	r.requireComplete("frontend")
	d := r.deployment("frontend")
	if img := d.Spec.Template.Spec.Containers[0].Image; img != "gcr.io/google-samples/gb-frontend:v4" {
		t.Fatalf("frontend ends on %s, want gb-frontend:v4", img)
	}
	if rev, _ := model.Revision(d); rev != 3 {
		t.Fatalf("frontend ends at revision %d, want 3 (v2, v3, v4)", rev)
	}
	// After setImage on the settled deployment, upstream's first three
	// ReplicaSet changes are: new RS to 3 (surge), old RS to 23 (2 unavailable
	// allowed), new RS to 5.
	first := firstChangesAfterSetImage(r, 3)
	want := []string{"new=3", "old=23", "new=5"}
	if strings.Join(first, " ") != strings.Join(want, " ") {
		t.Fatalf("first ReplicaSet changes after set image: %v, want %v (all changes: %v)", first, want, r.rsSpecs)
	}
}

// firstChangesAfterSetImage finds the first n spec changes after the first
// rollout started, naming the ReplicaSets "new" and "old".
func firstChangesAfterSetImage(r *run, n int) []string {
	var newName string
	var out []string
	for _, c := range r.rsSpecs {
		name, size, _ := strings.Cut(c, "=")
		if newName == "" {
			if size == "3" && len(out) == 0 && isNotFirstRS(r, name) {
				newName = name
				out = append(out, "new="+size)
			}
			continue
		}
		role := "old"
		if name == newName {
			role = "new"
		}
		out = append(out, role+"="+size)
		if len(out) == n {
			break
		}
	}
	return out
}

func isNotFirstRS(r *run, name string) bool {
	return !strings.HasPrefix(r.rsSpecs[0], name+"=")
}

func TestUndoReusesTheOldReplicaSetAndRecordsHistory(t *testing.T) {
	sc := parse(t, "undo.yaml", smallDeployment(6, "1", "1", 0)+`
actions:
  - {at: 30s, setImage: {target: deployment/web, container: app, image: "example.com/app:v2"}}
  - {at: 90s, undo: {target: deployment/web, toRevision: 1}}
`)
	r := startRun(t, sc, 0)
	r.requireNoViolations()
	r.requireComplete("web")
	d := r.deployment("web")
	if img := d.Spec.Template.Spec.Containers[0].Image; img != "example.com/app:v1" {
		t.Fatalf("after undo the template runs %s, want example.com/app:v1", img)
	}
	rss := r.owned(d)
	if len(rss) != 2 {
		t.Fatalf("undo created a new ReplicaSet: %d ReplicaSets, want the original two", len(rss))
	}
	current := model.FindNewReplicaSet(d, rss)
	if rev, _ := model.Revision(current); rev != 3 {
		t.Errorf("re-used ReplicaSet is at revision %d, want 3", rev)
	}
	if h := current.Annotations[model.RevisionHistoryAnnotation]; h != "1" {
		t.Errorf("revision-history = %q, want \"1\"", h)
	}
	if fmt.Sprint(r.actions) != "[setImage deployment/web: ok undo deployment/web: ok]" {
		t.Errorf("actions: %v", r.actions)
	}
}

func TestSameSeedSameTrace(t *testing.T) {
	sc := load(t, "frontend")
	a := startRun(t, sc, 7)
	b := startRun(t, load(t, "frontend"), 7)
	if !bytes.Equal(a.trace.Bytes(), b.trace.Bytes()) {
		t.Fatalf("two runs with seed 7 gave different traces (%d and %d bytes)", a.trace.Len(), b.trace.Len())
	}
	c := startRun(t, load(t, "frontend"), 8)
	if bytes.Equal(a.trace.Bytes(), c.trace.Bytes()) {
		t.Fatal("seeds 7 and 8 gave the same trace: jitter is not applied")
	}
}

// TestRandomRollouts generates rollouts of every shape the controller must
// handle and checks the invariants at every change.
func TestRandomRollouts(t *testing.T) {
	rng := rand.New(rand.NewSource(42))
	n := 24
	if testing.Short() {
		n = 6
	}
	for i := 0; i < n; i++ {
		replicas := 1 + rng.Intn(200)
		surge, unavail := randomFencepost(rng), randomFencepost(rng)
		if isZero(surge) && isZero(unavail) {
			unavail = "1"
		}
		minReady := rng.Intn(4) * 3
		var actions strings.Builder
		actions.WriteString("actions:\n")
		actions.WriteString("  - {at: 60s, setImage: {target: deployment/web, container: app, image: \"example.com/app:v2\"}}\n")
		at := 60 + 1 + rng.Intn(20)
		switch rng.Intn(3) {
		case 0: // scale mid-rollout
			fmt.Fprintf(&actions, "  - {at: %ds, scale: {target: deployment/web, replicas: %d}}\n", at, 1+rng.Intn(200))
		case 1: // a new rollout mid-rollout
			fmt.Fprintf(&actions, "  - {at: %ds, setImage: {target: deployment/web, container: app, image: \"example.com/app:v3\"}}\n", at)
		}
		src := smallDeployment(replicas, surge, unavail, minReady) + actions.String()
		name := fmt.Sprintf("r%02d-%d-%s-%s-%d", i, replicas, surge, unavail, minReady)
		t.Run(name, func(t *testing.T) {
			sc := parse(t, name+".yaml", src)
			r := startRun(t, sc, int64(i+1))
			r.requireNoViolations()
			r.requireComplete("web")
			d := r.deployment("web")
			wantRev := int64(2)
			if strings.Contains(src, "app:v3") {
				wantRev = 3
			}
			if rev, _ := model.Revision(d); rev != wantRev {
				t.Fatalf("revision %d, want %d (one per new template)", rev, wantRev)
			}
			checkRevisionsAreConsecutive(t, r, d)
		})
	}
}

func checkRevisionsAreConsecutive(t *testing.T, r *run, d *appsv1.Deployment) {
	t.Helper()
	for i, rs := range r.owned(d) {
		if rev, _ := model.Revision(rs); rev != int64(i+1) {
			t.Fatalf("ReplicaSet %s has revision %d, want %d", rs.Name, rev, i+1)
		}
	}
}

func randomFencepost(rng *rand.Rand) string {
	if rng.Intn(2) == 0 {
		return fmt.Sprint(rng.Intn(5))
	}
	return fmt.Sprintf("%d%%", []int{0, 10, 25, 33, 50, 100}[rng.Intn(6)])
}

func isZero(v string) bool { return v == "0" || v == "0%" }

// smallDeployment is a scenario with one Deployment "web" on enough nodes.
func smallDeployment(replicas int, surge, unavailable string, minReady int) string {
	nodes := 2 + replicas/25
	return fmt.Sprintf(`name: web
seed: 1
nodeGroups:
  - {name: nodes, role: Node, size: %d, capacity: {pods: 60, cpu: "16", memory: 64Gi}}
images:
  - {match: "example.com/app:*", pull: 1s, start: 1s, ready: 2s, jitter: 3s}
objects: |
  apiVersion: apps/v1
  kind: Deployment
  metadata:
    name: web
  spec:
    replicas: %d
    minReadySeconds: %d
    selector:
      matchLabels: {app: web}
    strategy:
      type: RollingUpdate
      rollingUpdate: {maxSurge: %s, maxUnavailable: %s}
    template:
      metadata:
        labels: {app: web}
      spec:
        containers:
        - name: app
          image: example.com/app:v1
`, nodes, replicas, minReady, yamlIntOrString(surge), yamlIntOrString(unavailable))
}

// yamlIntOrString writes "25%" as a string and "3" as an integer.
func yamlIntOrString(v string) string {
	if strings.HasSuffix(v, "%") {
		return fmt.Sprintf("%q", v)
	}
	return v
}

// TestThousandReplicaRollout runs the 1,000-replica benchmark scenario with
// every check on: a rollout that size exercises batching in the runner.
func TestThousandReplicaRollout(t *testing.T) {
	if testing.Short() {
		t.Skip("1,000 replicas")
	}
	src, err := os.ReadFile("../../testdata/scenarios/rollout-1k.yaml")
	if err != nil {
		t.Fatal(err)
	}
	r := startRun(t, parse(t, "rollout-1k.yaml", string(src)), 0)
	r.requireNoViolations()
	r.requireComplete("app")
	// Creation settles in seconds and the set image at 60s rolls 25% at a
	// time with pods ready within 6s: anything near the 600s progress
	// deadline means a wake-up was lost and the deadline requeue rescued it.
	if got := r.cluster.Elapsed(); got > 120*time.Second {
		t.Fatalf("the rollout finished at +%v, want well under 120s", got)
	}
}

// Each built-in scenario shows what its name promises.
func TestBuiltinScenariosDoWhatTheySay(t *testing.T) {
	t.Run("canary holds part-way while paused", func(t *testing.T) {
		r := startRun(t, load(t, "canary"), 0)
		d := r.deployment("frontend")
		if !d.Spec.Paused {
			t.Fatal("canary is not paused at the end")
		}
		rss := r.owned(d)
		newRS := model.FindNewReplicaSet(d, rss)
		if newRS == nil || *newRS.Spec.Replicas == 0 || *newRS.Spec.Replicas >= *d.Spec.Replicas {
			t.Fatalf("the new ReplicaSet should hold part of the replicas while paused, got %v", newRS)
		}
		for _, rs := range rss {
			if rs.Status.AvailableReplicas != *rs.Spec.Replicas {
				t.Errorf("run ended before %s settled: %d of %d available", rs.Name, rs.Status.AvailableReplicas, *rs.Spec.Replicas)
			}
		}
		if c := model.GetDeploymentCondition(d.Status, appsv1.DeploymentProgressing); c == nil || c.Reason != "DeploymentPaused" {
			t.Errorf("Progressing condition %+v, want reason DeploymentPaused", c)
		}
	})
	t.Run("crashloop exceeds its progress deadline", func(t *testing.T) {
		r := startRun(t, load(t, "crashloop"), 0, withFailingPods)
		d := r.deployment("frontend")
		c := model.GetDeploymentCondition(d.Status, appsv1.DeploymentProgressing)
		if c == nil || c.Reason != "ProgressDeadlineExceeded" || c.Status != "False" {
			t.Fatalf("Progressing condition %+v, want False/ProgressDeadlineExceeded", c)
		}
		newRS := model.FindNewReplicaSet(d, r.owned(d))
		if want := `ReplicaSet "` + newRS.Name + `" has timed out progressing.`; c.Message != want {
			t.Errorf("message %q, want %q", c.Message, want)
		}
		if msg, _, err := model.RolloutStatus(d, 0); err == nil || !strings.Contains(err.Error(), "exceeded its progress deadline") {
			t.Errorf("rollout status %q / %v, want kubectl's progress-deadline error", msg, err)
		}
	})
}
