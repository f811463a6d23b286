package slimdecode

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"rollscope/engine/kubelet"
	"rollscope/engine/live"
	"rollscope/engine/nodegroup"
	kubewatch "rollscope/kube/watch"
	"rollscope/model/cluster"
	"rollscope/test/e2e/e2etest"
)

const patience = 2 * time.Minute

var images = []kubelet.ImageRule{
	{Match: "e2e.example/crash:*", Pull: 100 * time.Millisecond, Start: 100 * time.Millisecond, CrashLoop: true},
	{Match: "e2e.example/nopull:*", Pull: 100 * time.Millisecond, PullError: true},
	{Match: "*", Pull: 100 * time.Millisecond, Start: 100 * time.Millisecond, Ready: 300 * time.Millisecond},
}

// pods is what one bridge sent of the pods: every version, and the latest
// of each pod still there; and the events it holds.
type pods struct {
	mu       sync.Mutex
	versions map[string]*corev1.Pod // name@resourceVersion
	latest   map[string]*corev1.Pod
	events   map[string]*corev1.Event
	synced   bool
}

func (p *pods) batch(b cluster.Batch) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.synced = p.synced || b.Watch.Synced
	for _, o := range b.Objects {
		switch o := o.(type) {
		case *corev1.Pod:
			p.versions[o.Name+"@"+o.ResourceVersion] = o
			p.latest[o.Name] = o
		case *corev1.Event:
			p.events[o.Name] = o
		}
	}
	for _, ref := range b.Deleted {
		switch ref.Kind {
		case "Pod":
			delete(p.latest, ref.Name)
		case "Event":
			delete(p.events, ref.Name)
		}
	}
}

// watchPods runs a bridge on client until the test ends.
func watchPods(t *testing.T, client kubernetes.Interface, ns string, opts kubewatch.Options) *pods {
	p := &pods{versions: map[string]*corev1.Pod{}, latest: map[string]*corev1.Pod{}, events: map[string]*corev1.Event{}}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- kubewatch.New(client, kubewatch.Scope{Namespace: ns}, nil, p.batch, opts).Run(ctx)
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("bridge: %v", err)
		}
	})
	return p
}

func clientFor(t *testing.T, cfg *rest.Config) kubernetes.Interface {
	c, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// TestPodsFromTheWireAreClientGosSlimmed watches one namespace with three
// bridges on the same API server: client-go decoding whole pods (protobuf)
// and the transform slimming them, the console's pods client over protobuf,
// and the same client when JSON is what is asked for. At every pod version
// two of them both saw, and at the end, the pods are the same. The
// console's (the pods client, and a pod detail's handle) holds every event
// the first holds but pods' Normal ones.
func TestPodsFromTheWireAreClientGosSlimmed(t *testing.T) {
	group := e2etest.HollowGroup(2, 300*time.Millisecond, e2etest.Capacity("30", "4", "8Gi"))
	c := e2etest.Start(t, e2etest.Setup{Patience: patience, Nodes: live.Nodes{Groups: []nodegroup.Group{group}, Images: images}})
	const ns = "slim"
	c.Namespace(t, ns)

	protobuf := c.CP.AdminConfig()
	protobuf.ContentType = "application/vnd.kubernetes.protobuf"
	protobuf.AcceptContentTypes = protobuf.ContentType + ",application/json"
	jsonOnly := c.CP.AdminConfig()
	jsonOnly.ContentType = "application/json"
	jsonOnly.AcceptContentTypes = "application/json"

	full := watchPods(t, clientFor(t, protobuf), ns, kubewatch.Options{})
	wire := watchPods(t, clientFor(t, protobuf), ns, kubewatch.Options{Config: protobuf, PodEvents: kubewatch.NewPodEvents()})
	viaJSON := watchPods(t, clientFor(t, jsonOnly), ns, kubewatch.Options{Config: jsonOnly})

	// A pod that is already there when the bridges list, one the
	// scheduler cannot place, a rollout with init containers and a sidecar
	// into a crash loop, an image that never pulls, deletions.
	ctx := t.Context()
	d := e2etest.Deployment(ns, "web", 3, "e2e.example/web:1")
	sidecar := corev1.ContainerRestartPolicyAlways
	d.Spec.Template.Annotations = map[string]string{"team": "payments"}
	d.Spec.Template.Spec.InitContainers = []corev1.Container{{Name: "migrate", Image: "e2e.example/migrate:1"},
		{Name: "proxy", Image: "e2e.example/proxy:1", RestartPolicy: &sidecar}}
	d.Spec.Template.Spec.Containers = append(d.Spec.Template.Spec.Containers, corev1.Container{Name: "log", Image: "e2e.example/log:1",
		Env: []corev1.EnvVar{{Name: "MODE", Value: "prod"}}})
	if _, err := c.Admin.AppsV1().Deployments(ns).Create(ctx, d, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	stuck := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "stuck", Namespace: ns},
		Spec: corev1.PodSpec{NodeSelector: map[string]string{"disk": "none"}, Containers: []corev1.Container{{Name: "app", Image: "e2e.example/web:1"}}}}
	if _, err := c.Admin.CoreV1().Pods(ns).Create(ctx, stuck, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	ready := func(want int) e2etest.Check {
		return func(ctx context.Context) (bool, string, error) {
			got, err := c.Admin.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
			if err != nil {
				return false, "", err
			}
			return int(got.Status.ReadyReplicas) >= want, fmt.Sprintf("%d ready", got.Status.ReadyReplicas), nil
		}
	}
	c.Poll(t, "web ready", ready(3))
	for _, image := range []string{"e2e.example/web:crash", "e2e.example/web:nopull"} {
		patch := fmt.Sprintf(`{"spec":{"template":{"spec":{"containers":[{"name":"app","image":%q}]}}}}`, image)
		if _, err := c.Admin.AppsV1().Deployments(ns).Patch(ctx, "web", types.StrategicMergePatchType, []byte(patch), metav1.PatchOptions{}); err != nil {
			t.Fatal(err)
		}
		c.Poll(t, "a pod of "+image+" waiting", func(ctx context.Context) (bool, string, error) {
			list, err := c.Admin.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
			if err != nil {
				return false, "", err
			}
			for _, p := range list.Items {
				for _, s := range p.Status.ContainerStatuses {
					if s.Image == image && s.State.Waiting != nil && s.State.Waiting.Reason != "" {
						return true, "", nil
					}
				}
			}
			return false, fmt.Sprintf("%d pods, none of %s waiting", len(list.Items), image), nil
		})
	}
	if err := c.Admin.CoreV1().Pods(ns).Delete(ctx, "stuck", metav1.DeleteOptions{}); err != nil {
		t.Fatal(err)
	}

	// Once every bridge has caught up, they hold the same pods; every
	// version two of them saw is the same pod.
	c.Poll(t, "the three bridges to hold the same pods", func(context.Context) (bool, string, error) {
		f, w, j := full.snapshot(), wire.snapshot(), viaJSON.snapshot()
		if len(f) == 0 || !full.isSynced() || !wire.isSynced() || !viaJSON.isSynced() {
			return false, "not synced", nil
		}
		_, stuckThere := f["stuck"]
		return !stuckThere && reflect.DeepEqual(f, w) && reflect.DeepEqual(f, j),
			fmt.Sprintf("%d / %d / %d pods", len(f), len(w), len(j)), nil
	})
	compared := 0
	for _, other := range []*pods{wire, viaJSON} {
		compared += sameVersions(t, full, other)
	}
	t.Logf("%d pod versions compared", compared)
	if compared < 10 {
		t.Errorf("only %d pod versions were seen by two bridges", compared)
	}
	var waiting []string
	for _, p := range wire.versions {
		for _, s := range p.Status.ContainerStatuses {
			if s.State.Waiting != nil {
				waiting = append(waiting, s.State.Waiting.Reason)
			}
		}
	}
	if len(waiting) == 0 {
		t.Error("no pod with a waiting container came through the wire")
	}
	sameEventsButPodsNormal(t, c, full, wire)
}

// sameEventsButPodsNormal waits for narrow to hold exactly the events all
// holds that are not a pod's Normal ones, and checks that these are many
// kinds of event: the API server's field selectors pick what the console
// asks for.
func sameEventsButPodsNormal(t *testing.T, c *e2etest.Cluster, all, narrow *pods) {
	var counts map[string]int
	c.Poll(t, "the console's bridge to hold every event but pods' Normal ones", func(context.Context) (bool, string, error) {
		all.mu.Lock()
		defer all.mu.Unlock()
		narrow.mu.Lock()
		defer narrow.mu.Unlock()
		counts = map[string]int{}
		for name, e := range all.events {
			kind := e.InvolvedObject.Kind
			if kind == "Pod" {
				kind += " " + e.Type
			}
			counts[kind]++
			_, held := narrow.events[name]
			if want := kind != "Pod Normal"; held != want {
				return false, fmt.Sprintf("%s %s %s held: %v", kind, e.Reason, name, held), nil
			}
		}
		for name := range narrow.events {
			if all.events[name] == nil {
				return false, "an event the full watch lacks: " + name, nil
			}
		}
		return true, "", nil
	})
	t.Logf("events by kind: %v", counts)
	for _, kind := range []string{"Pod Normal", "Pod Warning", "Deployment", "ReplicaSet"} {
		if counts[kind] == 0 {
			t.Errorf("no %s event to compare: %v", kind, counts)
		}
	}
}

func (p *pods) snapshot() map[string]*corev1.Pod {
	p.mu.Lock()
	defer p.mu.Unlock()
	out := make(map[string]*corev1.Pod, len(p.latest))
	for k, v := range p.latest {
		out[k] = v
	}
	return out
}

func (p *pods) isSynced() bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.synced
}

// sameVersions fails the test for a pod version both saw differently, and
// says how many they both saw.
func sameVersions(t *testing.T, a, b *pods) int {
	t.Helper()
	a.mu.Lock()
	defer a.mu.Unlock()
	b.mu.Lock()
	defer b.mu.Unlock()
	n := 0
	for key, pa := range a.versions {
		pb, ok := b.versions[key]
		if !ok {
			continue
		}
		n++
		if !reflect.DeepEqual(pa, pb) {
			t.Errorf("pod %s differs:\nclient-go+slim %+v\nwire           %+v", key, pa, pb)
		}
	}
	return n
}
