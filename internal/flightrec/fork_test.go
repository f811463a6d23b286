package flightrec

import (
	"context"
	"path/filepath"
	"reflect"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/actions"
	"rollscope/engine/embedded"
	"rollscope/engine/forecast"
	"rollscope/engine/perform"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
	"rollscope/kube/objects"
	"rollscope/kube/recording"
	"rollscope/model"
	"rollscope/model/action"
	"rollscope/model/argo"
	"rollscope/model/cluster"
	rec "rollscope/model/recording"
)

var epoch = time.Date(2026, 3, 1, 3, 10, 0, 0, time.UTC)

// webRollout is a deployment of ten rolled from app:v1 to app:v2 at 30s,
// images as a scenario without images: has them (ready a second after
// they start).
const webRollout = `name: web
seed: 1
namespace: default
nodeGroups:
  - {name: nodes, size: 3, capacity: {pods: 30, cpu: "8", memory: 32Gi}}
objects: |
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: 10
    minReadySeconds: 5
    selector: {matchLabels: {app: web}}
    strategy: {type: RollingUpdate, rollingUpdate: {maxSurge: 2, maxUnavailable: 1}}
    template:
      metadata: {labels: {app: web}}
      spec:
        containers: [{name: app, image: "app:v1"}]
actions:
  - {at: 30s, setImage: {target: deployment/web, container: app, image: "app:v2"}}
`

// snapshot is what the embedded cluster held at a moment, as the tests
// compare it with the recording's objects.
type snapshot struct {
	created   map[string]time.Time // pod → creation time
	ready     map[string]bool      // pod → Ready
	revisions map[string]string    // ReplicaSet → revision annotation
	replicas  map[string]int32     // ReplicaSet → spec.replicas
}

func snapshotOf(objs []runtime.Object) snapshot {
	s := snapshot{created: map[string]time.Time{}, ready: map[string]bool{}, revisions: map[string]string{}, replicas: map[string]int32{}}
	for _, obj := range objs {
		switch o := obj.(type) {
		case *corev1.Pod:
			s.created[o.Name], s.ready[o.Name] = o.CreationTimestamp.UTC(), model.IsPodReady(o)
		case *appsv1.ReplicaSet:
			s.revisions[o.Name], s.replicas[o.Name] = o.Annotations[model.RevisionAnnotation], *o.Spec.Replicas
		}
	}
	return s
}

// liveObjects lists the pods and ReplicaSets of the cluster now.
func liveObjects(t *testing.T, c kubernetes.Interface) []runtime.Object {
	ctx := context.Background()
	pods, err := c.CoreV1().Pods("default").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	rss, err := c.AppsV1().ReplicaSets("default").List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []runtime.Object
	for i := range pods.Items {
		out = append(out, &pods.Items[i])
	}
	for i := range rss.Items {
		out = append(out, &rss.Items[i])
	}
	return out
}

// recordWeb runs webRollout for 40s, recording every change the cluster
// made as the console's recorder writes its batches, and returns the
// recording and the cluster's pods and ReplicaSets at 36.1s, mid-rollout.
func recordWeb(t *testing.T) (string, time.Time, snapshot) {
	t.Helper()
	mid := epoch.Add(36*time.Second + 100*time.Millisecond)
	var was snapshot
	path := recordScenario(t, webRollout, 40*time.Second, mid, func(c kubernetes.Interface) { was = snapshotOf(liveObjects(t, c)) })
	return path, mid, was
}

// recordScenario runs a scenario for until, recording what its cluster
// did; at is called at the moment mid.
func recordScenario(t *testing.T, text string, until time.Duration, mid time.Time, at func(kubernetes.Interface)) string {
	t.Helper()
	sc, err := scenario.Parse("rec.yaml", []byte(text))
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "rec.gz")
	w, err := recording.Create(path, false)
	if err != nil {
		t.Fatal(err)
	}
	clock := sim.NewClock(epoch)
	if err := w.Begin(rec.Header{Context: "embedded", Namespace: "default", Started: epoch}, clock.Now); err != nil {
		t.Fatal(err)
	}
	synced := cluster.WatchStatus{Synced: true, Connected: true}
	tap := func(now time.Time, ev watch.Event) {
		obj := ev.Object
		if u, ok := obj.(*unstructured.Unstructured); ok {
			// The watch reads a Rollout typed, as kube/objects does.
			if u.GetKind() != "Rollout" {
				return
			}
			r := &argo.Rollout{}
			if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u.Object, r); err != nil {
				t.Error(err)
				return
			}
			obj = r
		}
		b := cluster.Batch{At: now, Watch: synced}
		if ev.Type == watch.Deleted {
			m, _ := obj.(metav1.Object)
			b.Deleted = []cluster.ObjectRef{{Kind: reflect.TypeOf(obj).Elem().Name(), Namespace: m.GetNamespace(), Name: m.GetName()}}
		} else {
			b.Objects = []runtime.Object{obj}
		}
		w.Batch(b)
	}
	cl, err := embedded.Start(context.Background(), memapi.New(memapi.Options{Clock: clock, Seed: 1}), clock, sc, embedded.Options{Observers: []sim.Observer{tap}})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Runner.Close()
	cl.Runner.At(mid.Sub(epoch), func() { at(cl.Client) })
	if _, err := cl.Runner.Run(context.Background(), sim.RunOptions{Until: until}); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return path
}

// The recorded state at a moment is the cluster's at that moment: every
// pod with its creation time (its age) and readiness, every ReplicaSet
// with its revision and size; and forked into an embedded cluster, the
// same objects stand there at the same clock.
func TestRecordedMomentIsTheClusterAtThatMoment(t *testing.T) {
	path, mid, was := recordWeb(t)
	tape, err := recording.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	got := snapshotOf(tape.ObjectsAt(mid))
	if len(was.created) < 10 || len(was.revisions) != 2 {
		t.Fatalf("not mid-rollout at %s: %d pods, ReplicaSets %v", mid.Format(time.TimeOnly), len(was.created), was.revisions)
	}
	if !reflect.DeepEqual(got, was) {
		t.Fatalf("recorded at %s:\n%+v\nthe cluster held:\n%+v", mid.Format(time.TimeOnly), got, was)
	}
	cl, err := Fork(context.Background(), tape, mid, embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Runner.Close()
	if now := cl.Clock().Now(); !now.Equal(mid) {
		t.Errorf("the fork's clock starts at %s, want %s", now, mid)
	}
	if forked := snapshotOf(liveObjects(t, cl.Client)); !reflect.DeepEqual(forked, was) {
		t.Errorf("forked at %s:\n%+v\nthe cluster held:\n%+v", mid.Format(time.TimeOnly), forked, was)
	}
}

// result is what a deployment's ReplicaSets did after a change: as
// forecast.Forecast counts it.
type result struct {
	start        time.Time
	watching     bool
	spec, avail  map[string]int32
	steps        int
	peak, lowest int32
	finished     time.Duration
}

func (r *result) observe(now time.Time, ev watch.Event) {
	rs, ok := ev.Object.(*appsv1.ReplicaSet)
	if !ok || ev.Type == watch.Deleted {
		return
	}
	if r.watching {
		if *rs.Spec.Replicas != r.spec[rs.Name] {
			r.steps++
		}
		if *rs.Spec.Replicas != r.spec[rs.Name] || rs.Status.AvailableReplicas != r.avail[rs.Name] {
			r.finished = now.Sub(r.start)
		}
	}
	r.spec[rs.Name], r.avail[rs.Name] = *rs.Spec.Replicas, rs.Status.AvailableReplicas
	if r.watching {
		var total, avail int32
		for name := range r.spec {
			total, avail = total+r.spec[name], avail+r.avail[name]
		}
		r.peak, r.lowest = max(r.peak, total), min(r.lowest, avail)
	}
}

// Rehearse from here: forked at a recorded mid-rollout moment, an undo's
// forecast — the one the console shows — is what the forked cluster then
// does: the same scaling steps, the same peak and lowest availability, the
// duration within a tenth.
func TestForkedUndoMatchesItsForecast(t *testing.T) {
	path, mid, _ := recordWeb(t)
	tape, err := recording.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	r := &result{spec: map[string]int32{}, avail: map[string]int32{}}
	cl, err := Fork(context.Background(), tape, mid, embedded.Options{Observers: []sim.Observer{r.observe}})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Runner.Close()
	ctx, web := context.Background(), actions.Target{Namespace: "default", Name: "web"}
	rehearsal := func(clock *sim.Clock) forecast.Backend { return memapi.New(memapi.Options{Clock: clock, Seed: 1}) }
	shown, err := perform.New(perform.Config{Client: cl.Client, Now: cl.Clock().Now, Rehearsal: rehearsal}).
		Forecast(ctx, action.Request{Action: action.Undo, Namespace: "default", Name: "web"})
	if err != nil {
		t.Fatal(err)
	}
	st, err := forecast.ReadState(ctx, cl.Client, "default", "web", cl.Clock().Now())
	if err != nil {
		t.Fatal(err)
	}
	f, err := forecast.Simulate(ctx, rehearsal, st, forecast.ObservedReadiness(st.Deployment, st.Pods), func(ctx context.Context, c kubernetes.Interface, t actions.Target) error {
		_, err := actions.Undo(ctx, c, t, 0)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if !strings.HasPrefix(shown, f.String()[:strings.Index(f.String(), " available")]) {
		t.Errorf("the console shows %q; the rehearsal gives %q", shown, f)
	}
	// The observer hears of the restored objects once the runner runs:
	// what they were at the fork is read from the cluster.
	r.watching, r.start = true, cl.Clock().Now()
	for _, obj := range liveObjects(t, cl.Client) {
		if rs, ok := obj.(*appsv1.ReplicaSet); ok {
			r.spec[rs.Name], r.avail[rs.Name] = *rs.Spec.Replicas, rs.Status.AvailableReplicas
			r.peak, r.lowest = r.peak+*rs.Spec.Replicas, r.lowest+rs.Status.AvailableReplicas
		}
	}
	if _, err := actions.Undo(ctx, cl.Client, web, 0); err != nil {
		t.Fatal(err)
	}
	if _, err := cl.Run(ctx, 10*time.Minute); err != nil {
		t.Fatal(err)
	}
	d, err := cl.Client.AppsV1().Deployments("default").Get(ctx, "web", metav1.GetOptions{})
	if err != nil || d.Spec.Template.Spec.Containers[0].Image != "app:v1" {
		t.Fatalf("the undo did not take the fork back to app:v1: %v", err)
	}
	if f.Outcome != forecast.Finished || f.Steps != r.steps || f.PeakPods != r.peak || f.LowestAvailable != r.lowest {
		t.Errorf("forecast %+v; the forked cluster did %d steps, peak %d, lowest %d available", f, r.steps, r.peak, r.lowest)
	}
	if diff := f.Duration - r.finished; diff < -r.finished/10-time.Second || diff > r.finished/10+time.Second {
		t.Errorf("forecast %v; the forked cluster took %v", f.Duration, r.finished)
	}
	t.Logf("forked at %s, undo: %s", mid.Format(time.TimeOnly), shown)
}

// An Argo Rollout forked mid-canary keeps its step and carries on from
// it: paused for 30s at 20%, the fork goes on to the promote-only pause.
func TestForkedRolloutCarriesOnFromItsStep(t *testing.T) {
	text, ok := scenario.BuiltinSource("argo-canary")
	if !ok {
		t.Fatal("no argo-canary scenario")
	}
	mid := epoch.Add(35 * time.Second)
	path := recordScenario(t, string(text), 40*time.Second, mid, func(kubernetes.Interface) {})
	tape, err := recording.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	cl, err := Fork(context.Background(), tape, mid, embedded.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Runner.Close()
	step := func() int32 {
		d, err := objects.DynamicOf(cl.Client)
		if err != nil {
			t.Fatal(err)
		}
		u, err := d.Resource(argo.Rollouts).Namespace("default").Get(context.Background(), "checkout", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		i, _, _ := unstructured.NestedInt64(u.Object, "status", "currentStepIndex")
		return int32(i)
	}
	if got := step(); got != 1 {
		t.Fatalf("forked at %s the rollout is at step %d, want 1 (the 30s pause) as recorded", mid.Format(time.TimeOnly), got)
	}
	if _, err := cl.Runner.Run(context.Background(), sim.RunOptions{Until: 2 * time.Minute}); err != nil {
		t.Fatal(err)
	}
	if got := step(); got != 3 {
		t.Errorf("two minutes after the fork the rollout is at step %d, want 3 (the pause until promoted)", got)
	}
}
