package noderoll

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/noderoll"
	"rollscope/model"
	"rollscope/test/e2e/e2etest"
)

// observer watches one group's nodes and one namespace's pods through the
// API, as an operator's second terminal would, and keeps what a roll must
// never do and how far it went at once.
type observer struct {
	group string
	// minimum is the namespace's budget (minAvailable) over all its pods.
	minimum int

	mu   sync.Mutex
	seen seen
}

// seen is what the observer saw.
type seen struct {
	// events counts node events, to order what happened.
	events int
	// maxDraining is the most nodes the roll had draining at once;
	// maxDrainingBeforeDelete the same before its first node was deleted
	// (kops takes the first node alone when none is up to date).
	maxDraining, maxDrainingBeforeDelete int
	// maxTaintedBeforeDelete is the most nodes carrying kops'
	// scheduled-for-update taint before the first deletion.
	maxTaintedBeforeDelete int
	maxDetached            int
	// detachedAt is the event at which each node was first seen detached;
	// freshReadyAt the event at which a node on the group's new spec was
	// first Ready (0: not yet).
	detachedAt   map[string]int
	freshReadyAt int
	deleted      []string
	// drainStarted names the nodes in the order the roll started them;
	// readyAtStart is how many of the group's nodes were Ready then.
	drainStarted []string
	readyAtStart map[string]int
	// rollMessages are the roll-message annotations seen, in order.
	rollMessages []string
	// blocked are the drain-blocked annotations seen, in order.
	blocked []string
	// deadlines are the roll-fails-at annotations seen, in order: when
	// the roll fails unless the cluster validates first. untrue are the
	// moments a drain started while one was on a node.
	deadlines, untrue []string
	// armed: the budget has been met once; from then on, fewer healthy
	// pods than minimum is a violation.
	armed      bool
	violations []string
}

// observe starts watching; the watch ends with the test.
func observe(t *testing.T, c kubernetes.Interface, group, namespace string, minimum int) *observer {
	t.Helper()
	o := &observer{group: group, minimum: minimum, seen: seen{detachedAt: map[string]int{}, readyAtStart: map[string]int{}}}
	ctx, stop := context.WithCancel(context.Background())
	nodes := informers.NewSharedInformerFactoryWithOptions(c, 0, informers.WithTweakListOptions(func(l *metav1.ListOptions) {
		l.LabelSelector = model.NodeGroupLabel + "=" + group
	}))
	nodeInf := nodes.Core().V1().Nodes().Informer()
	onNode := func(deleted string) {
		o.mu.Lock()
		defer o.mu.Unlock()
		o.sawNodes(nodeInf.GetStore().List(), deleted)
	}
	if _, err := nodeInf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { onNode("") },
		UpdateFunc: func(any, any) { onNode("") },
		DeleteFunc: func(obj any) {
			name := ""
			if n, ok := obj.(*corev1.Node); ok {
				name = n.Name
			} else if tomb, ok := obj.(cache.DeletedFinalStateUnknown); ok {
				name = tomb.Key
			}
			onNode(name)
		},
	}); err != nil {
		t.Fatal(err)
	}
	pods := informers.NewSharedInformerFactoryWithOptions(c, 0, informers.WithNamespace(namespace))
	podInf := pods.Core().V1().Pods().Informer()
	onPod := func() {
		o.mu.Lock()
		defer o.mu.Unlock()
		o.sawPods(podInf.GetStore().List())
	}
	if _, err := podInf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(any) { onPod() },
		UpdateFunc: func(any, any) { onPod() },
		DeleteFunc: func(any) { onPod() },
	}); err != nil {
		t.Fatal(err)
	}
	nodes.Start(ctx.Done())
	pods.Start(ctx.Done())
	for _, f := range []informers.SharedInformerFactory{nodes, pods} {
		for typ, ok := range f.WaitForCacheSync(ctx.Done()) {
			if !ok {
				t.Fatalf("the observer's %v cache never synced", typ)
			}
		}
	}
	// Shutdown waits for the informers, which stop with ctx.
	t.Cleanup(func() {
		stop()
		nodes.Shutdown()
		pods.Shutdown()
		s := o.snapshot()
		for _, u := range s.untrue {
			t.Error(u)
		}
		t.Logf("the roll's nodes carried %d validation deadlines", len(s.deadlines))
	})
	return o
}

// sawNodes records one node event; o.mu is held.
func (o *observer) sawNodes(objs []any, deleted string) {
	o.seen.events++
	if deleted != "" {
		o.seen.deleted = append(o.seen.deleted, deleted)
	}
	draining, detached, tainted, ready := 0, 0, 0, 0
	deadline := ""
	for _, obj := range objs {
		n := obj.(*corev1.Node)
		if model.NodeReady(n) {
			ready++
		}
		if at := n.Annotations[model.RollFailsAtAnnotation]; at != "" {
			deadline = at
		}
	}
	if deadline != "" && (len(o.seen.deadlines) == 0 || o.seen.deadlines[len(o.seen.deadlines)-1] != deadline) {
		o.seen.deadlines = append(o.seen.deadlines, deadline)
	}
	for _, obj := range objs {
		n := obj.(*corev1.Node)
		if n.Annotations[model.RollNodeAnnotation] == model.RollStepDraining {
			draining++
			if !slices.Contains(o.seen.drainStarted, n.Name) {
				o.seen.drainStarted = append(o.seen.drainStarted, n.Name)
				o.seen.readyAtStart[n.Name] = ready
				// The roll clears its deadline once the cluster
				// validates, before it drains the next node.
				if deadline != "" {
					o.seen.untrue = append(o.seen.untrue, fmt.Sprintf("the drain of %s started while a node said the roll fails at %s unless the cluster validates", n.Name, deadline))
				}
			}
		}
		if n.Annotations[model.DetachedAnnotation] == "true" {
			detached++
			if _, seen := o.seen.detachedAt[n.Name]; !seen {
				o.seen.detachedAt[n.Name] = o.seen.events
			}
		}
		if e2etest.HasTaint(n, noderoll.TaintScheduledForUpdate.Key) {
			tainted++
		}
		if _, outdated := n.Annotations[model.NeedsUpdateAnnotation]; !outdated && model.NodeReady(n) && o.seen.freshReadyAt == 0 {
			o.seen.freshReadyAt = o.seen.events
		}
		if b := n.Annotations[model.DrainBlockedAnnotation]; b != "" && (len(o.seen.blocked) == 0 || o.seen.blocked[len(o.seen.blocked)-1] != b) {
			o.seen.blocked = append(o.seen.blocked, b)
		}
		if m := n.Annotations[model.RollMessageAnnotation]; m != "" && !slices.Contains(o.seen.rollMessages, m) {
			o.seen.rollMessages = append(o.seen.rollMessages, m)
		}
	}
	o.seen.maxDraining = max(o.seen.maxDraining, draining)
	o.seen.maxDetached = max(o.seen.maxDetached, detached)
	if len(o.seen.deleted) == 0 {
		o.seen.maxDrainingBeforeDelete = max(o.seen.maxDrainingBeforeDelete, draining)
		o.seen.maxTaintedBeforeDelete = max(o.seen.maxTaintedBeforeDelete, tainted)
	}
}

// sawPods checks the budget at one pod event; o.mu is held. A pod counts
// as healthy as the disruption controller counts it: Ready and not being
// deleted.
func (o *observer) sawPods(objs []any) {
	if o.minimum == 0 {
		return
	}
	healthy := 0
	for _, obj := range objs {
		p := obj.(*corev1.Pod)
		if p.DeletionTimestamp == nil && model.IsPodReady(p) {
			healthy++
		}
	}
	switch {
	case healthy >= o.minimum:
		o.seen.armed = true
	case o.seen.armed:
		o.seen.violations = append(o.seen.violations, fmt.Sprintf("%s: %d healthy pods < minAvailable %d", time.Now().Format("15:04:05.000"), healthy, o.minimum))
	}
}

// requireNoViolations fails the test if the budget was ever broken after it
// was first met.
func (o *observer) requireNoViolations(t *testing.T) {
	t.Helper()
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.seen.armed {
		t.Fatalf("the budget of minAvailable %d was never met: the check watched nothing", o.minimum)
	}
	if len(o.seen.violations) > 0 {
		t.Fatalf("%d PodDisruptionBudget violations, first: %s", len(o.seen.violations), o.seen.violations[0])
	}
}

// snapshot returns a copy of what the observer saw so far.
func (o *observer) snapshot() seen {
	o.mu.Lock()
	defer o.mu.Unlock()
	s := o.seen
	s.detachedAt = maps.Clone(o.seen.detachedAt)
	s.deleted = append([]string(nil), o.seen.deleted...)
	s.drainStarted = append([]string(nil), o.seen.drainStarted...)
	s.readyAtStart = maps.Clone(o.seen.readyAtStart)
	s.rollMessages = append([]string(nil), o.seen.rollMessages...)
	s.blocked = append([]string(nil), o.seen.blocked...)
	s.violations = append([]string(nil), o.seen.violations...)
	return s
}
