package livesim

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"sort"
	"strings"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
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

// apiRecord keeps, for every Deployment and ReplicaSet of the cluster, its
// last state: the state it was deleted in once the run has cleaned up. The
// test's own informers relist after an API server outage, as rollscope's do.
type apiRecord struct {
	mu      sync.Mutex
	objects map[string]runtime.Object // "kind ns/name"
	deleted map[string]bool
}

func recordAPI(ctx context.Context, t *testing.T, client kubernetes.Interface) *apiRecord {
	t.Helper()
	a := &apiRecord{objects: map[string]runtime.Object{}, deleted: map[string]bool{}}
	keep := func(obj any, deleted bool) {
		if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = tomb.Obj
		}
		var key string
		switch o := obj.(type) {
		case *appsv1.Deployment:
			key = "deployment " + o.Namespace + "/" + o.Name
		case *appsv1.ReplicaSet:
			key = "replicaset " + o.Namespace + "/" + o.Name
		default:
			return
		}
		a.mu.Lock()
		defer a.mu.Unlock()
		a.objects[key] = obj.(runtime.Object)
		a.deleted[key] = deleted
	}
	h := cache.ResourceEventHandlerFuncs{
		AddFunc:    func(o any) { keep(o, false) },
		UpdateFunc: func(_, o any) { keep(o, false) },
		DeleteFunc: func(o any) { keep(o, true) },
	}
	f := informers.NewSharedInformerFactory(client, 0)
	for _, inf := range []cache.SharedIndexInformer{f.Apps().V1().Deployments().Informer(), f.Apps().V1().ReplicaSets().Informer()} {
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

// finalIn waits until every Deployment and ReplicaSet of namespace has been
// deleted (the run's cleanup) and returns their last states.
func (a *apiRecord) finalIn(ctx context.Context, t *testing.T, namespace string) []runtime.Object {
	t.Helper()
	var out []runtime.Object
	var alive []string
	err := wait.PollUntilContextTimeout(ctx, 100*time.Millisecond, time.Minute, true, func(context.Context) (bool, error) {
		a.mu.Lock()
		defer a.mu.Unlock()
		out, alive = nil, nil
		for key, obj := range a.objects {
			if !strings.Contains(key, " "+namespace+"/") {
				continue
			}
			out = append(out, obj)
			if !a.deleted[key] {
				alive = append(alive, key)
			}
		}
		return len(out) > 0 && len(alive) == 0, nil
	})
	if err != nil {
		t.Fatalf("the workloads of namespace %s were not all deleted after the run: %d seen, still there: %v", namespace, len(out), alive)
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
