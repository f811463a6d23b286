package livesim

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/api/meta"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/live"
	"rollscope/engine/trace"
)

var interrupt = os.Interrupt

// apiRecord keeps every state the API showed of every Deployment and
// ReplicaSet, and when each simulation namespace began to terminate. The
// API's final state of a run's objects is their last state before that: the
// run's cleanup changes them afterwards (their pods go first). The test's
// own informers relist after an API server outage, as rollscope's do.
type apiRecord struct {
	mu          sync.Mutex
	states      map[string][]state // by "kind ns/name", in the order seen
	deleted     map[string]bool
	terminating map[string]int64 // namespace → resourceVersion of its deletion
}

type state struct {
	rv  int64
	obj runtime.Object
}

// version reads a resourceVersion as the number etcd makes it. The API
// calls it opaque; on this test's own etcd it orders every write.
func version(t *testing.T, m metav1.Object) int64 {
	v, err := strconv.ParseInt(m.GetResourceVersion(), 10, 64)
	if err != nil {
		t.Errorf("resourceVersion %q of %s: %v", m.GetResourceVersion(), m.GetName(), err)
	}
	return v
}

func recordAPI(ctx context.Context, t *testing.T, client kubernetes.Interface) *apiRecord {
	t.Helper()
	a := &apiRecord{states: map[string][]state{}, deleted: map[string]bool{}, terminating: map[string]int64{}}
	keep := func(obj any, deleted bool) {
		if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = tomb.Obj
		}
		a.mu.Lock()
		defer a.mu.Unlock()
		var key string
		switch o := obj.(type) {
		case *corev1.Namespace:
			if _, seen := a.terminating[o.Name]; !seen && o.DeletionTimestamp != nil {
				a.terminating[o.Name] = version(t, o)
			}
			return
		case *appsv1.Deployment:
			key = "deployment " + o.Namespace + "/" + o.Name
		case *appsv1.ReplicaSet:
			key = "replicaset " + o.Namespace + "/" + o.Name
		default:
			return
		}
		m, _ := meta.Accessor(obj)
		if deleted {
			a.deleted[key] = true
			return
		}
		a.states[key] = append(a.states[key], state{rv: version(t, m), obj: obj.(runtime.Object)})
	}
	h := cache.ResourceEventHandlerFuncs{
		AddFunc:    func(o any) { keep(o, false) },
		UpdateFunc: func(_, o any) { keep(o, false) },
		DeleteFunc: func(o any) { keep(o, true) },
	}
	f := informers.NewSharedInformerFactory(client, 0)
	for _, inf := range []cache.SharedIndexInformer{f.Apps().V1().Deployments().Informer(), f.Apps().V1().ReplicaSets().Informer(), f.Core().V1().Namespaces().Informer()} {
		if _, err := inf.AddEventHandler(h); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(ctx)
	t.Cleanup(cancel)
	f.Start(ctx.Done())
	for typ, ok := range f.WaitForCacheSync(ctx.Done()) {
		if !ok {
			t.Fatalf("the test's %v cache never synced", typ)
		}
	}
	return a
}

// finalIn waits until namespace has begun to terminate and every
// Deployment and ReplicaSet in it is deleted, and returns each one's last
// state from before the namespace's deletion.
func (a *apiRecord) finalIn(ctx context.Context, t *testing.T, namespace string) []runtime.Object {
	t.Helper()
	var out []runtime.Object
	var alive []string
	err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, time.Minute, true, func(context.Context) (bool, error) {
		a.mu.Lock()
		defer a.mu.Unlock()
		out, alive = nil, nil
		deletedAt, terminating := a.terminating[namespace]
		for key, states := range a.states {
			if !strings.Contains(key, " "+namespace+"/") {
				continue
			}
			if !a.deleted[key] {
				alive = append(alive, key)
			}
			var last runtime.Object
			for _, s := range states {
				if s.rv < deletedAt {
					last = s.obj
				}
			}
			if last != nil {
				out = append(out, last)
			}
		}
		return terminating && len(out) > 0 && len(alive) == 0, nil
	})
	if err != nil {
		t.Fatalf("namespace %s was not deleted with its workloads after the run: %d final states, still there: %v", namespace, len(out), alive)
	}
	return out
}

// lastLines are the trace's last deployment and replicaset lines, by
// "type name", without their times.
func lastLines(lines []map[string]any) map[string]map[string]any {
	last := map[string]map[string]any{}
	for _, l := range lines {
		typ, _ := l["type"].(string)
		if typ != "deployment" && typ != "replicaset" {
			continue
		}
		key := fmt.Sprintf("%s %v", typ, l["name"])
		delete(l, "t")
		last[key] = l
	}
	return last
}

// expectedLines are the lines the trace writer gives the API's objects.
func expectedLines(t *testing.T, objs []runtime.Object) map[string]map[string]any {
	t.Helper()
	var buf bytes.Buffer
	epoch := time.Unix(0, 0)
	tw := trace.New(&buf, trace.JSONL, epoch, nil)
	for _, o := range objs {
		tw.Observe(epoch, watch.Event{Type: watch.Added, Object: o})
	}
	if err := tw.Flush(); err != nil {
		t.Fatal(err)
	}
	var lines []map[string]any
	for _, text := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		var m map[string]any
		if err := json.Unmarshal([]byte(text), &m); err != nil {
			t.Fatalf("the trace writer wrote %q: %v", text, err)
		}
		lines = append(lines, m)
	}
	return lastLines(lines)
}

// checkFinalState: the trace's last line of every Deployment and ReplicaSet
// is the API's final state of it, and the trace misses none of them.
func checkFinalState(t *testing.T, run *simRun, final []runtime.Object) {
	t.Helper()
	got, want := lastLines(run.trace()), expectedLines(t, final)
	keys := map[string]bool{}
	for k := range got {
		keys[k] = true
	}
	for k := range want {
		keys[k] = true
	}
	sorted := make([]string, 0, len(keys))
	for k := range keys {
		sorted = append(sorted, k)
	}
	sort.Strings(sorted)
	for _, k := range sorted {
		g, _ := json.Marshal(got[k])
		w, _ := json.Marshal(want[k])
		if !bytes.Equal(g, w) {
			t.Errorf("%s: the trace's last line is\n  %s\nthe API's final state is\n  %s", k, g, w)
		}
	}
}

// checkCleanedUp: the run's namespace and hollow nodes are gone.
func checkCleanedUp(ctx context.Context, t *testing.T, client kubernetes.Interface, namespace string) {
	t.Helper()
	err := wait.PollUntilContextTimeout(ctx, 200*time.Millisecond, time.Minute, true, func(ctx context.Context) (bool, error) {
		_, err := client.CoreV1().Namespaces().Get(ctx, namespace, metav1.GetOptions{})
		return apierrors.IsNotFound(err), nil
	})
	if err != nil {
		t.Errorf("namespace %s is still there a minute after the run", namespace)
	}
	nodes, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: live.LabelSimulation + "=" + namespace})
	if err != nil {
		t.Fatal(err)
	}
	if len(nodes.Items) != 0 {
		t.Errorf("%d hollow nodes of the run are left", len(nodes.Items))
	}
}

// endReason is the reason of the trace's end line, which must be its last.
func endReason(t *testing.T, run *simRun) string {
	t.Helper()
	lines := run.trace()
	run.mu.Lock()
	if len(run.bad) > 0 {
		t.Errorf("lines that are not JSON: %q", run.bad)
	}
	run.mu.Unlock()
	if len(lines) == 0 || lines[len(lines)-1]["type"] != "end" {
		t.Fatalf("the trace does not end with an end line:\n%s\nstderr: %s", run.text(), run.stderr.String())
	}
	reason, _ := lines[len(lines)-1]["reason"].(string)
	return reason
}
