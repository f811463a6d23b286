package disruption

import (
	"sort"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
	"rollscope/model"
)

// Name is the controller's name in events, as in kube-controller-manager.
const Name = "disruption-controller"

// deletionTimeout is how long an eviction recorded in status.disruptedPods
// is trusted to be followed by the pod's deletion. Until then the pod counts
// as already gone; after it, the entry is dropped as stale.
const deletionTimeout = 2 * time.Minute

// Controller maintains PodDisruptionBudget status. It implements
// control.Controller; its queue keys are PodDisruptionBudget keys.
type Controller struct {
	env *control.Env

	mu    sync.Mutex
	queue control.Queue
}

// New returns the disruption controller.
func New(env *control.Env) *Controller {
	if env == nil {
		env = &control.Env{} // Sync will say what is missing
	}
	return &Controller{env: env}
}

// Name implements control.Controller.
func (c *Controller) Name() string { return Name }

// Watches implements control.Controller: a budget is synced when it changes
// and when a pod it selects appears, changes or goes away.
func (c *Controller) Watches(q control.Queue) map[control.Kind]cache.ResourceEventHandler {
	c.mu.Lock()
	c.queue = q
	c.mu.Unlock()
	return map[control.Kind]cache.ResourceEventHandler{
		control.PodDisruptionBudgets: cache.ResourceEventHandlerFuncs{
			AddFunc:    c.budgetChanged,
			UpdateFunc: func(_, obj any) { c.budgetChanged(obj) },
			DeleteFunc: c.budgetChanged,
		},
		control.Pods: cache.ResourceEventHandlerFuncs{
			AddFunc: func(obj any) { c.podChanged(obj) },
			UpdateFunc: func(oldObj, obj any) {
				old, ok1 := oldObj.(*corev1.Pod)
				cur, ok2 := obj.(*corev1.Pod)
				if ok1 && ok2 && !mattersToBudget(old, cur) {
					return
				}
				// A relabelled pod may have left one budget for another.
				c.podChanged(oldObj)
				c.podChanged(obj)
			},
			DeleteFunc: c.podChanged,
		},
	}
}

func (c *Controller) q() control.Queue {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.queue
}

func (c *Controller) budgetChanged(obj any) {
	if key := control.Key(obj); key != "" {
		if q := c.q(); q != nil {
			q.Add(key)
		}
	}
}

// podChanged enqueues every budget selecting the pod. Upstream enqueues only
// the first one the lister returns (an arbitrary one when several match);
// enqueueing all, in name order, is a harmless superset that keeps runs
// reproducible.
func (c *Controller) podChanged(obj any) {
	p, ok := control.Deleted[*corev1.Pod](obj)
	q := c.q()
	if !ok || q == nil || c.env.Listers.PodDisruptionBudgets == nil {
		return
	}
	// Most namespaces have no budget: the lister would say so for every pod
	// update with an error that formats the pod's labels, and listing them
	// allocates; the index says so for nothing.
	if control.NoneIn(c.env.Listers.BudgetIndex, cache.NamespaceIndex, p.Namespace) {
		return
	}
	if all, err := c.env.Listers.PodDisruptionBudgets.PodDisruptionBudgets(p.Namespace).List(labels.Everything()); err != nil || len(all) == 0 {
		return
	}
	budgets, err := c.env.Listers.PodDisruptionBudgets.GetPodPodDisruptionBudgets(p)
	if err != nil {
		return // none selects it
	}
	sort.Slice(budgets, func(i, j int) bool { return budgets[i].Name < budgets[j].Name })
	for _, b := range budgets {
		q.Add(budgetKey(b))
	}
}

func budgetKey(b *policyv1.PodDisruptionBudget) string { return b.Namespace + "/" + b.Name }

// mattersToBudget reports whether a pod update can change a budget's status:
// which budgets select it, whether it is healthy, and which controller's
// scale it counts towards. Skipping the kubelet's other status writes keeps
// a large simulated rollout from recounting its budget once per write.
func mattersToBudget(old, cur *corev1.Pod) bool {
	return model.LabelsOrOwnersChanged(old, cur) ||
		(old.DeletionTimestamp == nil) != (cur.DeletionTimestamp == nil) ||
		model.IsPodReady(old) != model.IsPodReady(cur)
}
