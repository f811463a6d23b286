package live

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/model"
)

const testScenario = `name: web
nodeGroups:
  - {name: nodes, size: 2, capacity: {pods: 10, cpu: "2", memory: 4Gi}}
images:
  - {match: "*", pull: 10ms, start: 10ms, ready: 10ms}
objects: |
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: 2
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec:
        containers: [{name: web, image: "web:v1"}]
actions:
  - {at: 0s, scale: {target: deployment/web, replicas: 3}}
  - {at: 0s, drain: nodes-1}
`

// apiServerLike is client-go's fake clientset with what a run needs of a
// real API server: dry-run creates persist nothing, and a new namespace
// gets its default service account.
func apiServerLike(t *testing.T) *fake.Clientset {
	t.Helper()
	client := fake.NewClientset()
	client.PrependReactor("create", "*", func(a k8stesting.Action) (bool, runtime.Object, error) {
		create := a.(k8stesting.CreateActionImpl)
		if len(create.CreateOptions.DryRun) > 0 {
			return true, create.Object, nil
		}
		if ns, ok := create.Object.(*corev1.Namespace); ok {
			sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "default", Namespace: ns.Name}}
			if err := client.Tracker().Add(sa); err != nil {
				t.Error(err)
			}
		}
		return false, nil, nil
	})
	return client
}

func testSimulation(t *testing.T) (*Simulation, *observed) {
	t.Helper()
	sc, err := scenario.Parse("web.yaml", []byte(testScenario))
	if err != nil {
		t.Fatal(err)
	}
	o := &observed{}
	return &Simulation{
		Scenario:     sc,
		HollowNodes:  true,
		Epoch:        time.Unix(0, 0),
		Observe:      o.observe,
		OnAction:     o.action,
		Rand:         rand.New(rand.NewPCG(1, 2)),
		ReadyTimeout: 20 * time.Second,
	}, o
}

// observed records what a run reports.
type observed struct {
	mu      sync.Mutex
	nodes   map[string]bool
	actions []string
}

func (o *observed) observe(_ time.Time, ev watch.Event) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if n, ok := ev.Object.(*corev1.Node); ok {
		if o.nodes == nil {
			o.nodes = map[string]bool{}
		}
		o.nodes[n.Name] = true
	}
}

func (o *observed) action(_ time.Time, kind, target, result string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.actions = append(o.actions, kind+" "+target+": "+result)
}

func (o *observed) snapshot() (nodes map[string]bool, actions []string) {
	o.mu.Lock()
	defer o.mu.Unlock()
	nodes = map[string]bool{}
	for n := range o.nodes {
		nodes[n] = true
	}
	return nodes, append([]string(nil), o.actions...)
}

// A run interrupted in the middle deletes its namespace and its hollow
// nodes; before that, its actions ran in its own namespace and on its own
// nodes, and the trace saw the nodes under the scenario's names.
func TestSimulationCleansUpWhenInterrupted(t *testing.T) {
	client := apiServerLike(t)
	s, o := testSimulation(t)
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	run, err := s.Start(ctx, client)
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	cleaned := false
	defer func() {
		if !cleaned {
			_ = run.Cleanup(context.Background())
		}
	}()
	if err := run.Begin(ctx); err != nil {
		t.Fatalf("Begin: %v", err)
	}
	playCtx, interrupt := context.WithCancel(ctx)
	var reason string
	done := make(chan error, 1)
	go func() {
		var err error
		reason, _, err = run.Play(playCtx)
		done <- err
	}()
	poll(ctx, t, "both actions to have run", func() (bool, string) {
		_, actions := o.snapshot()
		return len(actions) == 2, ""
	})
	interrupt()
	if err := <-done; !errors.Is(err, context.Canceled) || reason != sim.EndCanceled {
		t.Errorf("Play after the interrupt: %q, %v; want %q and context.Canceled", reason, err, sim.EndCanceled)
	}

	nodes, actions := o.snapshot()
	if !nodes["nodes-0"] || !nodes["nodes-1"] || len(nodes) != 2 {
		t.Errorf("trace saw nodes %v, want nodes-0 and nodes-1", nodes)
	}
	want := []string{"scale deployment/web: ok", "drain node/nodes-1: ok"}
	if len(actions) != 2 || actions[0] != want[0] || actions[1] != want[1] {
		t.Errorf("actions %q, want %q", actions, want)
	}
	d, err := client.AppsV1().Deployments(run.Namespace).Get(ctx, "web", metav1.GetOptions{})
	if err != nil || *d.Spec.Replicas != 3 {
		t.Errorf("the run's deployment: %v, %v; want it scaled to 3 in %s", d, err, run.Namespace)
	}
	if d != nil && (d.Spec.Template.Spec.NodeSelector[LabelSimulation] != run.Namespace) {
		t.Errorf("the run's pods are not kept on its hollow nodes: node selector %v", d.Spec.Template.Spec.NodeSelector)
	}
	drained, err := client.CoreV1().Nodes().Get(ctx, "sim-"+run.Namespace[len(run.Namespace)-5:]+"-nodes-1", metav1.GetOptions{})
	if err != nil {
		t.Errorf("the run's node nodes-1: %v", err)
	} else if _, asked := drained.Annotations[model.DrainRequestAnnotation]; !asked {
		t.Errorf("the drain was not asked of the run's node: annotations %v", drained.Annotations)
	}

	cleaned = true
	if err := run.Cleanup(ctx); err != nil {
		t.Fatalf("Cleanup: %v", err)
	}
	if _, err := client.CoreV1().Namespaces().Get(ctx, run.Namespace, metav1.GetOptions{}); !apierrors.IsNotFound(err) {
		t.Errorf("namespace %s after cleanup: %v", run.Namespace, err)
	}
	left, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil || len(left.Items) != 0 {
		t.Errorf("%d nodes left after cleanup (%v)", len(left.Items), err)
	}
}

// A user who may not create namespaces is refused before anything is made.
func TestSimulationRefusedMakesNothing(t *testing.T) {
	client := apiServerLike(t)
	client.PrependReactor("create", "namespaces", func(a k8stesting.Action) (bool, runtime.Object, error) {
		return true, nil, apierrors.NewForbidden(schema.GroupResource{Resource: "namespaces"}, "", errors.New("viewer may not"))
	})
	s, _ := testSimulation(t)
	run, err := s.Start(t.Context(), client)
	if !errors.Is(err, ErrForbidden) {
		t.Fatalf("Start: %v, want ErrForbidden", err)
	}
	if err := run.Cleanup(t.Context()); err != nil {
		t.Errorf("Cleanup after a refused start: %v", err)
	}
	for _, a := range client.Actions() {
		if a.GetVerb() == "create" {
			if c := a.(k8stesting.CreateActionImpl); len(c.CreateOptions.DryRun) == 0 {
				t.Errorf("a refused run created a %s", a.GetResource().Resource)
			}
		}
	}
}

// A run whose rollouts have finished ends on its own, once its caches are
// known to hold the API's latest objects.
func TestSimulationEndsWhenEveryRolloutHasFinished(t *testing.T) {
	client := apiServerLike(t)
	s, _ := testSimulation(t)
	s.Scenario.Actions = nil
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	defer cancel()
	run, err := s.Start(ctx, client)
	defer func() { _ = run.Cleanup(context.Background()) }()
	if err != nil {
		t.Fatalf("Start: %v", err)
	}
	if err := run.Begin(ctx); err != nil {
		t.Fatalf("Begin: %v", err)
	}
	// No controller runs on the fake API: write the status a deployment
	// controller would write once the rollout is complete.
	d, err := client.AppsV1().Deployments(run.Namespace).Get(ctx, "web", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d.Status = appsv1.DeploymentStatus{Replicas: 2, UpdatedReplicas: 2, ReadyReplicas: 2, AvailableReplicas: 2}
	if _, err := client.AppsV1().Deployments(run.Namespace).UpdateStatus(ctx, d, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	reason, at, err := run.Play(ctx)
	if err != nil || reason != sim.EndQuiescent {
		t.Fatalf("Play: %q, %v; want %q", reason, err, sim.EndQuiescent)
	}
	if at.Before(s.Epoch) {
		t.Errorf("the end is at %v, before the run's epoch %v", at, s.Epoch)
	}
}

// A node group whose hollow name would not fit in a label is refused
// before anything is made.
func TestSimulationRefusesAGroupNameTooLongForTheRun(t *testing.T) {
	client := apiServerLike(t)
	s, _ := testSimulation(t)
	s.Scenario.NodeGroups[0].Name = strings.Repeat("n", 60)
	run, err := s.Start(t.Context(), client)
	if err == nil || !strings.Contains(err.Error(), "shorten the group's name") {
		t.Fatalf("Start: %v, want the group's name refused", err)
	}
	if err := run.Cleanup(t.Context()); err != nil {
		t.Errorf("Cleanup: %v", err)
	}
	if n := len(client.Actions()); n != 0 {
		t.Errorf("%d requests sent for a refused run, want none", n)
	}
}

// The run's namespace carries the labels and annotations the scenario
// declares on its own namespace, beside the run's mark.
func TestSimulationNamespaceKeepsTheDeclaredLabels(t *testing.T) {
	s, _ := testSimulation(t)
	s.Scenario.Objects = append(s.Scenario.Objects, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{
		Name: s.Scenario.Namespace, Labels: map[string]string{"team": "payments"}, Annotations: map[string]string{"owner": "alice"}}})
	run := &Run{sim: s, Namespace: "rollscope-sim-web-b2c4d"}
	ns := run.namespaceObject()
	if ns.Name != run.Namespace || ns.Labels["team"] != "payments" || ns.Annotations["owner"] != "alice" || ns.Labels[LabelSimulation] != run.Namespace {
		t.Errorf("run namespace %s, labels %v, annotations %v; want team=payments, owner=alice and the run's mark", ns.Name, ns.Labels, ns.Annotations)
	}
}
