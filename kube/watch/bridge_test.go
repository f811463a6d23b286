package watch_test

import (
	"context"
	"errors"
	"net"
	"os"
	"slices"
	"strconv"
	"sync"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	apiwatch "k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"rollscope/kube/memapi"
	"rollscope/kube/watch"
	"rollscope/model/cluster"
)

func TestFirstBatchHoldsEverythingOnceSynced(t *testing.T) {
	client := memapi.New(memapi.Options{}).Client()
	for i := range 30 {
		must(client.CoreV1().Pods("default").Create(ctx, pod("default", "web-"+strconv.Itoa(i)), metav1.CreateOptions{}))(t)
	}
	must(client.CoreV1().Nodes().Create(ctx, node("node-1"), metav1.CreateOptions{}))(t)

	r := run(t, client, watch.Scope{}, watch.Options{})
	eventually(t, "a first batch", func() bool { b, _ := r.snapshot(); return len(b) > 0 })

	batches, _ := r.snapshot()
	first := batches[0]
	if !first.Watch.Synced || !first.Watch.Connected || first.Watch.Problem != "" {
		t.Fatalf("first batch's watch status = %+v, want synced and connected", first.Watch)
	}
	// memapi's own namespaces (default, kube-system, ...) come first.
	objects := slices.DeleteFunc(slices.Clone(first.Objects), func(o runtime.Object) bool { _, ns := o.(*corev1.Namespace); return ns })
	if len(objects) != 31 || len(first.Objects) == 31 || len(first.Deleted) != 0 {
		t.Fatalf("first batch has %d objects (%d namespaces) and %d deletions, want the namespaces, the 30 pods and the node",
			len(first.Objects), len(first.Objects)-len(objects), len(first.Deleted))
	}
	if _, ok := first.Objects[0].(*corev1.Namespace); !ok {
		t.Errorf("first object is %T, want the namespaces before the rest", first.Objects[0])
	}
	if _, ok := objects[0].(*corev1.Node); !ok {
		t.Errorf("first object after the namespaces is %T, want the node before the pods", objects[0])
	}
	if first.At.IsZero() {
		t.Error("the batch is not stamped with the clock")
	}
}

func TestCreatedUpdatedDeletedObjectsArrive(t *testing.T) {
	client := memapi.New(memapi.Options{}).Client()
	r := run(t, client, watch.Scope{}, watch.Options{})
	eventually(t, "the synced first batch", func() bool { b, _ := r.snapshot(); return len(b) > 0 && b[0].Watch.Synced })

	web := cluster.ObjectRef{Kind: "Pod", Namespace: "default", Name: "web"}
	p := must(client.CoreV1().Pods("default").Create(ctx, pod("default", "web"), metav1.CreateOptions{}))(t)
	eventually(t, "the created pod", func() bool { o, _ := r.find(web); return o != nil })

	p.Labels["version"] = "2"
	must(client.CoreV1().Pods("default").Update(ctx, p, metav1.UpdateOptions{}))(t)
	eventually(t, "the updated pod", func() bool { o, _ := r.find(web); return o != nil && o.GetLabels()["version"] == "2" })

	if err := client.CoreV1().Pods("default").Delete(ctx, "web", metav1.DeleteOptions{GracePeriodSeconds: new(int64)}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "the pod in Deleted", func() bool { _, gone := r.find(web); return gone })

	batches, _ := r.snapshot()
	for i := 1; i < len(batches); i++ {
		b := batches[i]
		if len(b.Objects) == 0 && len(b.Deleted) == 0 && b.Watch == batches[i-1].Watch {
			t.Errorf("batch %d was sent with nothing new to say", i)
		}
	}
}

func TestRapidUpdatesOfOnePodCoalesce(t *testing.T) {
	const updates = 10000
	client := memapi.New(memapi.Options{}).Client()
	p := must(client.CoreV1().Pods("default").Create(ctx, pod("default", "busy"), metav1.CreateOptions{}))(t)
	// A longer interval than the default keeps the bound below independent
	// of how fast a loaded test machine makes the updates.
	r := run(t, client, watch.Scope{}, watch.Options{Interval: 100 * time.Millisecond})
	eventually(t, "the synced first batch", func() bool { b, _ := r.snapshot(); return len(b) > 0 })

	began := time.Now()
	for i := 1; i <= updates; i++ {
		p.Labels["n"] = strconv.Itoa(i)
		p = must(client.CoreV1().Pods("default").Update(ctx, p, metav1.UpdateOptions{}))(t)
	}
	busy := cluster.ObjectRef{Kind: "Pod", Namespace: "default", Name: "busy"}
	eventually(t, "the last update", func() bool { o, _ := r.find(busy); return o != nil && o.GetLabels()["n"] == strconv.Itoa(updates) })
	// At most one batch an interval, however long a loaded machine took to
	// make the updates: the bound follows the time they took.
	took := time.Since(began)

	batches, _ := r.snapshot()
	mentions := 0
	for _, b := range batches {
		inBatch := 0
		for _, o := range b.Objects {
			if refOf(o) == busy {
				inBatch++
			}
		}
		if inBatch > 1 {
			t.Fatalf("one batch carries the pod %d times, want once", inBatch)
		}
		mentions += inBatch
	}
	if limit := min(int(took/(100*time.Millisecond))+2, updates/10); mentions > limit {
		t.Errorf("%d updates in %v reached the screen in %d batches, want them coalesced into at most %d (one an interval)", updates, took, mentions, limit)
	}
	t.Logf("%d updates in %v, %d batches", updates, took, mentions)
}

func TestNeverMoreThan20BatchesASecond(t *testing.T) {
	client := memapi.New(memapi.Options{}).Client()
	r := run(t, client, watch.Scope{}, watch.Options{})
	eventually(t, "the synced first batch", func() bool { b, _ := r.snapshot(); return len(b) > 0 })

	// Constant churn on ten pods until the window has been counted.
	stop := make(chan struct{})
	churned := make(chan error, 1)
	go func() {
		churned <- func() error {
			pods := make([]*corev1.Pod, 10)
			for i := range pods {
				p, err := client.CoreV1().Pods("default").Create(ctx, pod("default", "churn-"+strconv.Itoa(i)), metav1.CreateOptions{})
				if err != nil {
					return err
				}
				pods[i] = p
			}
			for n := 0; ; n++ {
				select {
				case <-stop:
					return nil
				default:
				}
				p := pods[n%len(pods)]
				p.Labels["n"] = strconv.Itoa(n)
				updated, err := client.CoreV1().Pods("default").Update(ctx, p, metav1.UpdateOptions{})
				if err != nil {
					return err
				}
				pods[n%len(pods)] = updated
			}
		}()
	}()

	const window = 2 * time.Second
	start := time.Now()
	time.Sleep(window + 200*time.Millisecond)
	close(stop)
	if err := <-churned; err != nil {
		t.Fatal(err)
	}

	_, arrived := r.snapshot()
	inWindow := 0
	for _, at := range arrived {
		if !at.Before(start) && at.Before(start.Add(window)) {
			inWindow++
		}
	}
	if inWindow > 40 {
		t.Errorf("%d batches in a %v window of churn, want at most 40 (20 a second)", inWindow, window)
	}
	if inWindow < 2 {
		t.Errorf("%d batches in a %v window of churn, want the churn to keep reaching the screen", inWindow, window)
	}
	// No second of the run held more than 20 batches either.
	for i := 20; i < len(arrived); i++ {
		if arrived[i].Sub(arrived[i-20]) < time.Second {
			t.Fatalf("21 batches within %v, want at most 20 a second", arrived[i].Sub(arrived[i-20]))
		}
	}
	t.Logf("%d batches in %v of churn", inWindow, window)
}

func TestNamespaceScopeExcludesOtherNamespaces(t *testing.T) {
	client := memapi.New(memapi.Options{}).Client()
	must(client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team"}}, metav1.CreateOptions{}))(t)
	must(client.CoreV1().Pods("default").Create(ctx, pod("default", "outside-early"), metav1.CreateOptions{}))(t)
	must(client.CoreV1().Pods("team").Create(ctx, pod("team", "inside-early"), metav1.CreateOptions{}))(t)
	must(client.CoreV1().Nodes().Create(ctx, node("node-1"), metav1.CreateOptions{}))(t)

	r := run(t, client, watch.Scope{Namespace: "team"}, watch.Options{})
	eventually(t, "the synced first batch", func() bool { b, _ := r.snapshot(); return len(b) > 0 })
	must(client.CoreV1().Pods("default").Create(ctx, pod("default", "outside-late"), metav1.CreateOptions{}))(t)
	must(client.CoreV1().Pods("team").Create(ctx, pod("team", "inside-late"), metav1.CreateOptions{}))(t)
	eventually(t, "the late pod in the scope", func() bool {
		o, _ := r.find(cluster.ObjectRef{Kind: "Pod", Namespace: "team", Name: "inside-late"})
		return o != nil
	})

	for _, want := range []cluster.ObjectRef{
		{Kind: "Pod", Namespace: "team", Name: "inside-early"},
		{Kind: "Node", Name: "node-1"}, // nodes are cluster-wide whatever the scope
	} {
		if o, _ := r.find(want); o == nil {
			t.Errorf("%v never arrived", want)
		}
	}
	batches, _ := r.snapshot()
	for _, b := range batches {
		for _, o := range b.Objects {
			if ns := o.(metav1.Object).GetNamespace(); ns != "" && ns != "team" {
				t.Errorf("%v arrived from outside the scope", refOf(o))
			}
		}
	}
}

func TestTransformsTrimWhatTheConsoleNeverShows(t *testing.T) {
	client := memapi.New(memapi.Options{}).Client()
	p := pod("default", "configured")
	p.Annotations = map[string]string{"kubectl.kubernetes.io/last-applied-configuration": `{"big":"manifest"}`, "kept": "yes"}
	p.Spec.Volumes = []corev1.Volume{{Name: "data", VolumeSource: corev1.VolumeSource{EmptyDir: &corev1.EmptyDirVolumeSource{}}}}
	c := &p.Spec.Containers[0]
	c.Env = []corev1.EnvVar{{Name: "MODE", Value: "prod"}}
	c.VolumeMounts = []corev1.VolumeMount{{Name: "data", MountPath: "/data"}}
	c.ReadinessProbe = &corev1.Probe{ProbeHandler: corev1.ProbeHandler{Exec: &corev1.ExecAction{Command: []string{"true"}}}}
	must(client.CoreV1().Pods("default").Create(ctx, p, metav1.CreateOptions{}))(t)

	r := run(t, client, watch.Scope{}, watch.Options{})
	eventually(t, "the synced first batch", func() bool { b, _ := r.snapshot(); return len(b) > 0 })
	o, _ := r.find(cluster.ObjectRef{Kind: "Pod", Namespace: "default", Name: "configured"})
	got, ok := o.(*corev1.Pod)
	if !ok {
		t.Fatalf("the pod arrived as %T", o)
	}
	gc := got.Spec.Containers[0]
	if got.Spec.Volumes != nil || gc.Env != nil || gc.VolumeMounts != nil || gc.ReadinessProbe != nil {
		t.Errorf("pod spec kept what the console never shows: volumes %v, env %v, mounts %v, probe %v", got.Spec.Volumes, gc.Env, gc.VolumeMounts, gc.ReadinessProbe)
	}
	// model reads no pod annotation: a pod keeps none.
	if got.Annotations != nil {
		t.Errorf("annotations = %v, want none kept", got.Annotations)
	}
	if gc.Image != "nginx:1.25" || gc.Name != "web" {
		t.Errorf("container = %s %s, want its name and image kept", gc.Name, gc.Image)
	}
}

// refused is the error a dial to a stopped API server returns.
var refused = &net.OpError{Op: "dial", Net: "tcp", Err: &os.SyscallError{Syscall: "connect", Err: syscall.ECONNREFUSED}}

func TestWatchFailureIsReportedAndClears(t *testing.T) {
	client := fake.NewClientset()
	var down atomic.Bool
	down.Store(true)
	client.PrependReactor("list", "pods", func(k8stesting.Action) (bool, runtime.Object, error) {
		if down.Load() {
			return true, nil, refused
		}
		return false, nil, nil
	})
	r := run(t, client, watch.Scope{}, watch.Options{})

	eventually(t, "a batch saying the watch is failing", func() bool {
		b, _ := r.snapshot()
		return len(b) > 0 && !b[len(b)-1].Watch.Connected
	})
	batches, _ := r.snapshot()
	first, failing := batches[0], batches[len(batches)-1].Watch
	if first.Watch.Synced {
		t.Errorf("the first batch says synced while pods cannot be listed")
	}
	if want := "connection refused"; failing.Problem != want {
		t.Errorf("problem = %q, want %q", failing.Problem, want)
	}
	if failing.Since.IsZero() {
		t.Error("the failure has no Since")
	}

	down.Store(false)
	eventually(t, "a batch saying the watch is back", func() bool {
		b, _ := r.snapshot()
		w := b[len(b)-1].Watch
		return w.Connected && w.Synced && w.Problem == ""
	})
	back, _ := r.snapshot()
	if w := back[len(back)-1].Watch; !w.Since.After(failing.Since) && !w.Since.Equal(failing.Since) {
		t.Errorf("Since went back in time: %v then %v", failing.Since, w.Since)
	}
}

func TestRunTwiceIsRefused(t *testing.T) {
	b := watch.New(fake.NewClientset(), watch.Scope{}, nil, func(cluster.Batch) {}, watch.Options{})
	c, cancel := context.WithCancel(ctx)
	cancel()
	if err := b.Run(c); err != nil {
		t.Fatalf("first Run: %v", err)
	}
	if err := b.Run(c); err == nil {
		t.Fatal("second Run was accepted")
	}
}

func TestForbiddenNodesDoNotHoldUpTheRest(t *testing.T) {
	client := fake.NewClientset(pod("default", "web"))
	client.PrependReactor("list", "nodes", func(k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: "nodes"}, "", errors.New(`User "dev" cannot list resource "nodes"`))
	})
	r := run(t, client, watch.Scope{Namespace: "default"}, watch.Options{})
	eventually(t, "a synced batch", func() bool {
		b, _ := r.snapshot()
		return len(b) > 0 && b[len(b)-1].Watch.Synced
	})
	// A refused list is no lost watch: the pod is live, the status stays
	// connected, and it names what the user may not list.
	eventually(t, "the pod, connected, and nodes forbidden", func() bool {
		o, _ := r.find(cluster.ObjectRef{Kind: "Pod", Namespace: "default", Name: "web"})
		b, _ := r.snapshot()
		w := b[len(b)-1].Watch
		return o != nil && w.Connected && w.Problem == "" && w.MayNotList("Node") && !w.MayNotList("Pod")
	})
}

// An API server that goes away once the watches are established: the
// reflector retries the refused watch by itself without telling the watch
// error handler, and the bridge must still say it lost the cluster, then
// that it is back.
func TestRefusedWatchIsReportedAndClears(t *testing.T) {
	client := fake.NewClientset(pod("default", "web"))
	var (
		down    atomic.Bool
		mu      sync.Mutex
		current *apiwatch.FakeWatcher
	)
	client.PrependWatchReactor("pods", func(k8stesting.Action) (bool, apiwatch.Interface, error) {
		if down.Load() {
			return true, nil, refused
		}
		w := apiwatch.NewFake()
		mu.Lock()
		current = w
		mu.Unlock()
		return true, w, nil
	})
	r := run(t, client, watch.Scope{}, watch.Options{})
	eventually(t, "a synced, connected batch over an established pod watch", func() bool {
		mu.Lock()
		defer mu.Unlock()
		b, _ := r.snapshot()
		return current != nil && len(b) > 0 && b[len(b)-1].Watch.Synced && b[len(b)-1].Watch.Connected
	})

	// The API server goes away: its watch ends, and every new one is
	// refused.
	down.Store(true)
	mu.Lock()
	current.Stop()
	mu.Unlock()
	eventually(t, "a batch saying the watch is failing", func() bool {
		b, _ := r.snapshot()
		w := b[len(b)-1].Watch
		return !w.Connected && w.Problem == "connection refused"
	})

	down.Store(false)
	eventually(t, "a batch saying the watch is back", func() bool {
		b, _ := r.snapshot()
		w := b[len(b)-1].Watch
		return w.Connected && w.Problem == ""
	})
}

// TestAQuietClusterStillShowsTheNextChange: once the picture is whole and
// nothing changes, the bridge rests; a pod created after a quiet spell, and
// an API server that stops answering then, still reach the screen.
func TestAQuietClusterStillShowsTheNextChange(t *testing.T) {
	client := fake.NewClientset(pod("shop", "web-1"))
	var silent atomic.Bool
	probe := func(context.Context) error {
		if silent.Load() {
			return context.DeadlineExceeded
		}
		return nil
	}
	r := run(t, client, watch.Scope{}, watch.Options{Probe: probe})
	eventually(t, "the first picture", func() bool {
		o, _ := r.find(cluster.ObjectRef{Kind: "Pod", Namespace: "shop", Name: "web-1"})
		return o != nil
	})
	before, _ := r.snapshot()
	time.Sleep(300 * time.Millisecond) // quiet: six Intervals with nothing to send
	if quiet, _ := r.snapshot(); len(quiet) != len(before) {
		t.Fatalf("%d batches sent while nothing changed", len(quiet)-len(before))
	}

	must(client.CoreV1().Pods("shop").Create(ctx, pod("shop", "web-2"), metav1.CreateOptions{}))(t)
	eventually(t, "web-2 on screen after the quiet spell", func() bool {
		o, _ := r.find(cluster.ObjectRef{Kind: "Pod", Namespace: "shop", Name: "web-2"})
		return o != nil
	})
	time.Sleep(300 * time.Millisecond)
	silent.Store(true)
	eventually(t, "the unanswered API server on screen after another quiet spell", func() bool {
		b, _ := r.snapshot()
		return !b[len(b)-1].Watch.Connected && b[len(b)-1].Watch.Unanswered
	})
}

// TestTheFirstChangesAfterAQuietSpellComeTogether: a resting pump sends on
// the beat it would have kept, not at the first change, so that what one
// write sets off (a Deployment's template, then its controller's new
// ReplicaSet) is one picture, not a Deployment whose ReplicaSet is missing.
// The two creates, a millisecond apart, are made just after a beat (the
// beats keep the phase of the last batch sent), so that the next one is
// most of the long Interval away, however late the test saw the first
// picture.
func TestTheFirstChangesAfterAQuietSpellComeTogether(t *testing.T) {
	client := fake.NewClientset(pod("shop", "web-1"))
	r := run(t, client, watch.Scope{}, watch.Options{Interval: time.Second})
	eventually(t, "the first picture", func() bool {
		o, _ := r.find(cluster.ObjectRef{Kind: "Pod", Namespace: "shop", Name: "web-1"})
		return o != nil
	})
	_, arrived := r.snapshot()
	// Quiet past a beat, then a tenth of a second after the next one.
	time.Sleep(time.Until(arrived[len(arrived)-1].Add(2*time.Second + 100*time.Millisecond)))
	must(client.CoreV1().Pods("shop").Create(ctx, pod("shop", "web-2"), metav1.CreateOptions{}))(t)
	must(client.CoreV1().Pods("shop").Create(ctx, pod("shop", "web-3"), metav1.CreateOptions{}))(t)
	eventually(t, "web-2 and web-3 on screen", func() bool {
		o2, _ := r.find(cluster.ObjectRef{Kind: "Pod", Namespace: "shop", Name: "web-2"})
		o3, _ := r.find(cluster.ObjectRef{Kind: "Pod", Namespace: "shop", Name: "web-3"})
		return o2 != nil && o3 != nil
	})
	batches, _ := r.snapshot()
	last := batches[len(batches)-1]
	if n := len(last.Objects); n != 2 {
		t.Errorf("the two pods created together came in separate batches: the last batch holds %d objects", n)
	}
}
