package live

import (
	"context"
	"slices"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/kubernetes/fake"
	k8stesting "k8s.io/client-go/testing"

	"rollscope/engine/control"
	"rollscope/engine/drain"
	"rollscope/model"
)

// The console's controllers list and watch no pod while no drain or
// canary needs them; a drain requested then lists them all before it
// reads any (so it evicts the node's pod rather than finding it empty),
// and once it is over and no one has read pods for a while the pod watch
// ends.
func TestConsoleWatchesPodsOnlyWhileADrainNeedsThem(t *testing.T) {
	client := fake.NewClientset(
		&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}},
		&corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-1", Namespace: "shop",
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "ReplicaSet", Name: "web", UID: "rs", Controller: ptr(true)}}},
			Spec: corev1.PodSpec{NodeName: "n1"}},
	)
	podLists := func() int { return listsOf(client, "pods") }
	r, err := NewScopedRunner(client, Scope{Trim: true, PodsNeeded: consoleNeedsPods}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r.onDemand[control.Pods].idle = 100 * time.Millisecond
	r.Add(drain.New(r.Env("drain-controller")))
	ctx := runForTest(t, r)
	if pods, _ := r.Listers().Pods.List(labels.Everything()); len(pods) != 0 || podLists() != 0 || r.onDemand[control.Pods].running() {
		t.Fatalf("with nothing to do the controllers read %d pods, listed or watched pods %d times", len(pods), podLists())
	}

	if err := drain.Request(ctx, client, "n1", drain.Options{DisableEviction: true}); err != nil {
		t.Fatal(err)
	}
	waitFor(ctx, t, "the drain to end", func() bool {
		n, err := client.CoreV1().Nodes().Get(ctx, "n1", metav1.GetOptions{})
		return err == nil && model.DrainOver(n.Annotations[model.DrainStateAnnotation])
	})
	n, _ := client.CoreV1().Nodes().Get(ctx, "n1", metav1.GetOptions{})
	if st := n.Annotations[model.DrainStateAnnotation]; st != model.DrainDrained {
		t.Errorf("drain ended %s: %s", st, n.Annotations[model.DrainMessageAnnotation])
	}
	if _, err := client.CoreV1().Pods("shop").Get(ctx, "web-1", metav1.GetOptions{}); err == nil {
		t.Error("the node's pod is still there: the drain read an empty pod cache")
	}
	if podLists() == 0 {
		t.Error("the drain never listed pods")
	}
	waitFor(ctx, t, "the pod watch to end once the drain is over", func() bool { return !r.onDemand[control.Pods].running() })
}

// The console's controllers list and watch no ReplicaSet while no canary or
// node roll needs them, however many rollouts write theirs; a canary lists
// them all before its first read, and once it is gone and no one has read
// them for a while the watch ends.
func TestConsoleWatchesReplicaSetsOnlyWhileACanaryOrARollNeedsThem(t *testing.T) {
	client := fake.NewClientset(
		&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", UID: "web"}},
		&appsv1.ReplicaSet{ObjectMeta: metav1.ObjectMeta{Name: "web-1", Namespace: "shop",
			OwnerReferences: []metav1.OwnerReference{{APIVersion: "apps/v1", Kind: "Deployment", Name: "web", UID: "web", Controller: ptr(true)}}}},
	)
	lists := func() int { return listsOf(client, "replicasets") }
	r, err := NewScopedRunner(client, Scope{Trim: true, PodsNeeded: consoleNeedsPods, ReplicaSetsNeeded: consoleNeedsReplicaSets}, nil)
	if err != nil {
		t.Fatal(err)
	}
	rss := r.onDemand[control.ReplicaSets]
	rss.idle = 100 * time.Millisecond
	ctx := runForTest(t, r)
	if got, _ := r.Listers().ReplicaSets.List(labels.Everything()); len(got) != 0 || lists() != 0 || rss.running() {
		t.Fatalf("with nothing to do the controllers read %d ReplicaSets, listed or watched them %d times", len(got), lists())
	}

	d, _ := client.AppsV1().Deployments("shop").Get(ctx, "web", metav1.GetOptions{})
	d.Annotations = map[string]string{model.CanaryAnnotation: "{}"}
	if _, err := client.AppsV1().Deployments("shop").Update(ctx, d, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(ctx, t, "the canary to be work", func() bool { return consoleNeedsReplicaSets(r.Listers()) })
	got, _ := r.Listers().ReplicaSets.List(labels.Everything())
	if len(got) != 1 || !rss.running() {
		t.Fatalf("a canary read %d ReplicaSets (watching: %v), want the one there is", len(got), rss.running())
	}
	if owned, _ := r.Listers().ReplicaSetIndex.ByIndex(control.IndexByController, "web"); len(owned) != 1 {
		t.Errorf("the canary's index of ReplicaSets by Deployment holds %d, want 1", len(owned))
	}

	d.Annotations = nil
	if _, err := client.AppsV1().Deployments("shop").Update(ctx, d, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(ctx, t, "the ReplicaSet watch to end once the canary is gone", func() bool { return !rss.running() })
}

// The console's controllers list and watch only the Deployments labelled
// as a canary's, however many others roll; a node roll, which waits for
// every Deployment between nodes, lists them all, and once it is over and no
// one has read them for a while the watch of every Deployment ends.
func TestConsoleWatchesOnlyCanariesDeploymentsUntilANodeRoll(t *testing.T) {
	canary := &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "canary", Namespace: "shop"}}
	(model.Canary{}).Write(&canary.ObjectMeta)
	client := fake.NewClientset(
		&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}},
		&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"}},
		canary,
	)
	r, err := NewScopedRunner(client, consoleScope, nil)
	if err != nil {
		t.Fatal(err)
	}
	all := r.onDemand[control.Deployments]
	all.idle = 100 * time.Millisecond
	ctx := runForTest(t, r)
	names := func() []string {
		ds, _ := r.Listers().Deployments.List(labels.Everything())
		var out []string
		for _, d := range ds {
			out = append(out, d.Name)
		}
		slices.Sort(out)
		return out
	}
	// unselected counts the lists and watches of every Deployment.
	unselected := func() int {
		n := 0
		for _, a := range client.Actions() {
			if a.GetResource().Resource != "deployments" {
				continue
			}
			var sel labels.Selector
			switch a := a.(type) {
			case k8stesting.ListAction:
				sel = a.GetListRestrictions().Labels
			case k8stesting.WatchAction:
				sel = a.GetWatchRestrictions().Labels
			default:
				continue
			}
			if sel == nil || sel.String() != model.CanaryLabel {
				n++
			}
		}
		return n
	}
	if got := names(); !slices.Equal(got, []string{"canary"}) || unselected() != 0 || all.running() {
		t.Fatalf("with no node roll the controllers read Deployments %v, listed or watched all of them %d times", got, unselected())
	}
	if canaries, _ := r.Listers().DeploymentIndex.IndexKeys(control.IndexCanaries, control.Canary); len(canaries) != 1 {
		t.Errorf("the index of canaries holds %v, want the one", canaries)
	}

	n, _ := client.CoreV1().Nodes().Get(ctx, "n1", metav1.GetOptions{})
	n.Annotations = map[string]string{model.RollAnnotation: "{}"}
	if _, err := client.CoreV1().Nodes().Update(ctx, n, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(ctx, t, "the node roll to be work", func() bool { return consoleNeedsDeployments(r.Listers()) })
	if got := names(); !slices.Equal(got, []string{"canary", "web"}) || unselected() == 0 || !all.running() {
		t.Fatalf("a node roll read Deployments %v (watching all: %v), want both", got, all.running())
	}

	n.Annotations = nil
	if _, err := client.CoreV1().Nodes().Update(ctx, n, metav1.UpdateOptions{}); err != nil {
		t.Fatal(err)
	}
	waitFor(ctx, t, "the watch of every Deployment to end once the roll is over", func() bool { return !all.running() })
	if got := names(); !slices.Equal(got, []string{"canary"}) {
		t.Errorf("after the roll the controllers read Deployments %v, want the canary's", got)
	}
}

// A canary on a Deployment is work that reads pods and ReplicaSets, a drain
// pods, a node roll ReplicaSets and every Deployment; a Deployment without a
// canary, a node whose drain is over or never asked for are none of these.
func TestConsoleNeedsPodsAndReplicaSetsForItsWork(t *testing.T) {
	for _, c := range []struct {
		name              string
		objs              []any
		pods, replicaSets bool
		deployments       bool
	}{
		{"nothing", []any{&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1"}}, &appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"}}}, false, false, false},
		{"drain requested", []any{&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1", Annotations: map[string]string{model.DrainRequestAnnotation: "{}"}}}}, true, false, false},
		{"drain over", []any{&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1", Annotations: map[string]string{
			model.DrainRequestAnnotation: "{}", model.DrainStateAnnotation: model.DrainDrained}}}}, false, false, false},
		{"node roll", []any{&corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "n1", Annotations: map[string]string{model.RollAnnotation: "{}"}}}}, false, true, true},
		{"canary", []any{&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop", Annotations: map[string]string{model.CanaryAnnotation: "{}"}}}}, true, true, false},
	} {
		r, err := NewScopedRunner(fake.NewClientset(), Scope{}, nil)
		if err != nil {
			t.Fatal(err)
		}
		for _, o := range c.objs {
			switch o := o.(type) {
			case *corev1.Node:
				_ = r.informers[control.Nodes].GetIndexer().Add(o)
			case *appsv1.Deployment:
				_ = r.informers[control.Deployments].GetIndexer().Add(o)
			}
		}
		if got := consoleNeedsPods(r.Listers()); got != c.pods {
			t.Errorf("%s: pods needed %v, want %v", c.name, got, c.pods)
		}
		if got := consoleNeedsReplicaSets(r.Listers()); got != c.replicaSets {
			t.Errorf("%s: ReplicaSets needed %v, want %v", c.name, got, c.replicaSets)
		}
		if got := consoleNeedsDeployments(r.Listers()); got != c.deployments {
			t.Errorf("%s: every Deployment needed %v, want %v", c.name, got, c.deployments)
		}
	}
}

// listsOf counts the lists and watches of resource client was asked for.
func listsOf(client *fake.Clientset, resource string) int {
	n := 0
	for _, a := range client.Actions() {
		if a.GetResource().Resource == resource && (a.GetVerb() == "list" || a.GetVerb() == "watch") {
			n++
		}
	}
	return n
}

func waitFor(ctx context.Context, t *testing.T, what string, ok func() bool) {
	t.Helper()
	for !ok() {
		select {
		case <-ctx.Done():
			t.Fatalf("waited in vain for %s", what)
		case <-time.After(20 * time.Millisecond):
		}
	}
}
