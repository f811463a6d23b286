package rollingupdate_test

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	typedcorev1 "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"

	. "rollscope/engine/rollingupdate"
)

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

const (
	oldImage = "nginx:1.25"
	newImage = "nginx:1.27"
	replicas = 4
	// maxSurge is the legacy default the tests run with.
	maxSurge = 1
)

// world is the embedded cluster running the legacy-rc scenario with the
// rolling-update controller added, and the checks made at every change.
type world struct {
	t       *testing.T
	cluster *embedded.Cluster
	env     *control.Env
	client  *crashingClient
	ctrl    *restartable
	lines   []string
	failed  []string
	// mostPods is the most pods (not terminating) seen at once.
	mostPods int
}

func newWorld(t *testing.T) *world {
	t.Helper()
	sc, err := scenario.Load(filepath.Join("testdata", "legacy-rc.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	clock := sim.NewClock(epoch)
	api := memapi.New(memapi.Options{Clock: clock, Seed: sc.Seed})
	w := &world{t: t}
	c, err := embedded.Start(context.Background(), api, clock, sc, embedded.Options{
		Observers: []sim.Observer{w.observe},
		// The cluster's rolling-update controller, with a client that can
		// be made to fail, in a process that can be killed and restarted.
		RollingUpdate: func(env *control.Env) control.Controller {
			w.env = env
			w.client = &crashingClient{Interface: env.Client, budget: -1}
			env.Client = w.client
			w.ctrl = &restartable{}
			w.ctrl.restart(w)
			return w.ctrl
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	w.cluster = c
	w.run(func() bool { return w.settledAt(oldImage) }, time.Hour)
	return w
}

// observe counts the pods that are not terminating after every change.
func (w *world) observe(_ time.Time, _ watch.Event) {
	pods, _ := w.cluster.Runner.Listers().Pods.List(labels.Everything())
	n := 0
	for _, p := range pods {
		if p.DeletionTimestamp == nil && p.Status.Phase != corev1.PodSucceeded && p.Status.Phase != corev1.PodFailed {
			n++
		}
	}
	w.mostPods = max(w.mostPods, n)
}

// run runs the cluster at full speed until done holds or limit passes.
func (w *world) run(done func() bool, limit time.Duration) {
	w.t.Helper()
	end := w.cluster.Elapsed() + limit
	if _, err := w.cluster.Runner.Run(context.Background(), sim.RunOptions{Until: end, Finished: done}); err != nil {
		w.t.Fatal(err)
	}
	if !done() {
		w.t.Fatalf("not done after %v of virtual time; %s\nprogress:\n%s", limit, w.describe(), strings.Join(w.lines, "\n"))
	}
}

// runFor runs the cluster at full speed for d of virtual time.
func (w *world) runFor(d time.Duration) {
	w.t.Helper()
	if _, err := w.cluster.Runner.Run(context.Background(), sim.RunOptions{Until: w.cluster.Elapsed() + d}); err != nil {
		w.t.Fatal(err)
	}
}

// request asks the controller for an update by annotating web, as the
// console's key or a scenario action would.
func (w *world) request(r Request) {
	w.t.Helper()
	ctx := context.Background()
	rcs := w.cluster.Client.CoreV1().ReplicationControllers("default")
	rc, err := rcs.Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		w.t.Fatal(err)
	}
	if rc.Annotations == nil {
		rc.Annotations = map[string]string{}
	}
	rc.Annotations[RequestAnnotation] = r.Annotation()
	if _, err := rcs.Update(ctx, rc, metav1.UpdateOptions{}); err != nil {
		w.t.Fatal(err)
	}
}

func (w *world) rcs() []corev1.ReplicationController {
	l, err := w.cluster.Client.CoreV1().ReplicationControllers("default").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		w.t.Fatal(err)
	}
	return l.Items
}

func (w *world) pods() []corev1.Pod {
	l, err := w.cluster.Client.CoreV1().Pods("default").List(context.Background(), metav1.ListOptions{})
	if err != nil {
		w.t.Fatal(err)
	}
	return l.Items
}

// settledAt reports whether the update is over with image: one controller,
// web, at full size with no rollout annotations, every pod its own, ready,
// on image, none terminating.
func (w *world) settledAt(image string) bool {
	rcs := w.rcs()
	if len(rcs) != 1 || rcs[0].Name != "web" {
		return false
	}
	rc := rcs[0]
	if HasRolloutAnnotations(&rc) || Size(&rc) != replicas || rc.Spec.Template.Spec.Containers[0].Image != image ||
		rc.Status.ReadyReplicas != replicas || rc.Status.ObservedGeneration < rc.Generation {
		return false
	}
	pods := w.pods()
	if len(pods) != replicas {
		return false
	}
	for _, p := range pods {
		owner := metav1.GetControllerOf(&p)
		if owner == nil || owner.UID != rc.UID || p.DeletionTimestamp != nil || p.Spec.Containers[0].Image != image {
			return false
		}
	}
	return true
}

func (w *world) describe() string {
	var b strings.Builder
	for _, rc := range w.rcs() {
		fmt.Fprintf(&b, "rc %s uid %s size %d status %d/%d ready gen %d/%d image %s selector %v annotations %v\n", rc.Name, rc.UID, Size(&rc),
			rc.Status.Replicas, rc.Status.ReadyReplicas, rc.Status.ObservedGeneration, rc.Generation,
			rc.Spec.Template.Spec.Containers[0].Image, rc.Spec.Selector, rc.Annotations)
	}
	pods := w.pods()
	sort.Slice(pods, func(i, j int) bool { return pods[i].Name < pods[j].Name })
	for _, p := range pods {
		owner := "none"
		if o := metav1.GetControllerOf(&p); o != nil {
			owner = o.Name
		}
		if o := metav1.GetControllerOf(&p); o != nil {
			owner += "/" + string(o.UID)
		}
		fmt.Fprintf(&b, "pod %s owner %s image %s labels %v terminating %v\n", p.Name, owner, p.Spec.Containers[0].Image, p.Labels, p.DeletionTimestamp != nil)
	}
	fmt.Fprintf(&b, "failed: %v", w.failed)
	return b.String()
}

// restartable stands for the rollscope process: restart replaces the
// controller with a brand-new one, losing everything it held in memory.
type restartable struct {
	c *Controller
	q control.Queue
}

func (r *restartable) restart(w *world) {
	r.c = NewController(w.env)
	r.c.Progress = func(_, line string) { w.lines = append(w.lines, line) }
	r.c.Failed = func(_, name string, err error) { w.failed = append(w.failed, name+": "+err.Error()) }
	if r.q != nil {
		r.c.Watches(r.q)
	}
}

func (r *restartable) Name() string { return r.c.Name() }

func (r *restartable) Watches(q control.Queue) map[control.Kind]cache.ResourceEventHandler {
	r.q = q
	h := r.c.Watches(q)
	// The handlers must reach whichever controller is current.
	return map[control.Kind]cache.ResourceEventHandler{
		control.ReplicationControllers: cache.ResourceEventHandlerFuncs{
			AddFunc:    func(obj any) { h[control.ReplicationControllers].OnAdd(obj, false) },
			UpdateFunc: func(o, n any) { h[control.ReplicationControllers].OnUpdate(o, n) },
		},
	}
}

func (r *restartable) Sync(ctx context.Context, key string) error { return r.c.Sync(ctx, key) }

// errCrashed is what every write returns once the process has "died".
var errCrashed = errors.New("rollscope was killed")

// crashingClient counts the updater's writes and fails every write after
// budget of them (budget < 0: never).
type crashingClient struct {
	kubernetes.Interface
	budget int64
	writes atomic.Int64
	// crashAfter, when set, ends the budget at the write it returns true
	// for: "delete web", "create web", "update web", ...
	crashAfter func(write string) bool
}

func (c *crashingClient) write(verb, name string) error {
	n := c.writes.Add(1)
	if b := atomic.LoadInt64(&c.budget); b >= 0 && n > b {
		return errCrashed
	}
	if c.crashAfter != nil && c.crashAfter(verb+" "+name) {
		atomic.StoreInt64(&c.budget, n)
	}
	return nil
}

// crashed reports whether a write has failed since the budget ran out.
func (c *crashingClient) crashed() bool {
	b := atomic.LoadInt64(&c.budget)
	return b >= 0 && c.writes.Load() > b
}

func (c *crashingClient) CoreV1() typedcorev1.CoreV1Interface {
	return crashingCore{CoreV1Interface: c.Interface.CoreV1(), c: c}
}

type crashingCore struct {
	typedcorev1.CoreV1Interface
	c *crashingClient
}

func (cc crashingCore) ReplicationControllers(ns string) typedcorev1.ReplicationControllerInterface {
	return crashingRCs{ReplicationControllerInterface: cc.CoreV1Interface.ReplicationControllers(ns), c: cc.c}
}

func (cc crashingCore) Pods(ns string) typedcorev1.PodInterface {
	return crashingPods{PodInterface: cc.CoreV1Interface.Pods(ns), c: cc.c}
}

type crashingRCs struct {
	typedcorev1.ReplicationControllerInterface
	c *crashingClient
}

func (r crashingRCs) Create(ctx context.Context, rc *corev1.ReplicationController, o metav1.CreateOptions) (*corev1.ReplicationController, error) {
	if err := r.c.write("create", rc.Name); err != nil {
		return nil, err
	}
	return r.ReplicationControllerInterface.Create(ctx, rc, o)
}

func (r crashingRCs) Update(ctx context.Context, rc *corev1.ReplicationController, o metav1.UpdateOptions) (*corev1.ReplicationController, error) {
	if err := r.c.write("update", rc.Name); err != nil {
		return nil, err
	}
	return r.ReplicationControllerInterface.Update(ctx, rc, o)
}

func (r crashingRCs) Delete(ctx context.Context, name string, o metav1.DeleteOptions) error {
	if err := r.c.write("delete", name); err != nil {
		return err
	}
	return r.ReplicationControllerInterface.Delete(ctx, name, o)
}

type crashingPods struct {
	typedcorev1.PodInterface
	c *crashingClient
}

func (p crashingPods) Update(ctx context.Context, pod *corev1.Pod, o metav1.UpdateOptions) (*corev1.Pod, error) {
	if err := p.c.write("update pod", pod.Name); err != nil {
		return nil, err
	}
	return p.PodInterface.Update(ctx, pod, o)
}

func (p crashingPods) Delete(ctx context.Context, name string, o metav1.DeleteOptions) error {
	if err := p.c.write("delete pod", name); err != nil {
		return err
	}
	return p.PodInterface.Delete(ctx, name, o)
}

// The scenario file must stay in step with the constants above.
func TestScenarioMatchesTheTestConstants(t *testing.T) {
	b, err := os.ReadFile(filepath.Join("testdata", "legacy-rc.yaml"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"image: " + oldImage, fmt.Sprintf("replicas: %d", replicas)} {
		if !strings.Contains(string(b), want) {
			t.Errorf("testdata/legacy-rc.yaml lacks %q", want)
		}
	}
}
