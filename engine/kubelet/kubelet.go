package kubelet

import (
	"strings"
	"sync"
	"time"

	corev1 "k8s.io/api/core/v1"
	corev1client "k8s.io/client-go/kubernetes/typed/core/v1"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
	"rollscope/model"
)

// Options says which nodes a kubelet runs.
type Options struct {
	// Serves reports whether this kubelet runs the named node; nil means
	// every node, as in the embedded cluster. Hollow nodes sharing one API
	// server each serve their own.
	Serves func(nodeName string) bool
	// Logs keeps what the containers write, for `kubectl logs`; nil keeps
	// nothing.
	Logs *Logs
	// RoutineEvents records the Normal events a real kubelet records for
	// each container it starts (Pulling, Pulled, Created, Started), as
	// hollow nodes may to weigh a console's watch as a real cluster does;
	// without, only Warnings.
	RoutineEvents bool
}

// Kubelet runs the pods bound to the nodes it serves.
type Kubelet struct {
	env    *control.Env
	rules  []ImageRule
	serves func(string) bool
	queue  control.Queue
	logs   *Logs
	pods   *control.Namespaced[corev1client.PodInterface]
	// routine records the routine Normal events (Options.RoutineEvents).
	routine bool

	mu     sync.Mutex
	images map[string]image // each image's rule and ID, worked out once
	// progress is kept by pod key, each entry saying which pod (UID) it is
	// about: one lookup per sync, where a map by UID needed a second map to
	// find a deleted pod's UID from its key.
	progress map[string]*podProgress
	podIPs   uint32 // pod IPs handed out so far
	// conditions, hostIPs and status are only touched by Sync, which runs
	// one key at a time.
	conditions conditionLists
	// status is the room a sync builds the status it writes in
	// (statusToWrite).
	status corev1.PodStatus
	// hostIPs holds one status.hostIPs list per node address, shared by
	// the node's pods (stored statuses are never written into): at
	// 100,000 replicas, 100,000 objects fewer for the garbage collector.
	hostIPs map[string][]corev1.HostIP
	// nodes is what a pod's sync reads of its node, by name, kept by the
	// node handlers as the cache changes: every sync of every pod asks,
	// and at 5,000 nodes reading the node object itself (its name, its
	// conditions) missed the processor's caches each time.
	nodes map[string]nodeFacts
}

// nodeFacts is what a pod's sync reads of its node.
type nodeFacts struct {
	ready  bool
	hostIP string
}

// New returns a kubelet that treats images as rules say.
func New(env *control.Env, rules []ImageRule, opts Options) *Kubelet {
	serves := opts.Serves
	if serves == nil {
		serves = func(string) bool { return true }
	}
	if opts.Logs != nil && env.Listers.Pods != nil {
		pods := env.Listers.Pods
		opts.Logs.pod = func(namespace, name string) (*corev1.Pod, error) { return pods.Pods(namespace).Get(name) }
	}
	return &Kubelet{
		logs:     opts.Logs,
		routine:  opts.RoutineEvents,
		pods:     control.NewNamespaced(func(ns string) corev1client.PodInterface { return env.Client.CoreV1().Pods(ns) }),
		env:      env,
		rules:    append([]ImageRule(nil), rules...),
		serves:   serves,
		images:   map[string]image{},
		progress: map[string]*podProgress{},
		hostIPs:  map[string][]corev1.HostIP{},
		nodes:    map[string]nodeFacts{},
	}
}

// Name implements control.Controller.
func (k *Kubelet) Name() string { return "kubelet" }

// Watches implements control.Controller. Pod keys are "namespace/name"; a
// node's key is its bare name (node names never contain '/'), synced when the
// node becomes Ready so that the pods waiting on it carry on.
func (k *Kubelet) Watches(q control.Queue) map[control.Kind]cache.ResourceEventHandler {
	k.queue = q
	return map[control.Kind]cache.ResourceEventHandler{
		control.Pods: cache.ResourceEventHandlerFuncs{
			AddFunc: func(obj any) {
				if p, ok := obj.(*corev1.Pod); ok && k.runs(p) {
					q.Add(control.Key(p))
				}
			},
			UpdateFunc: func(oldObj, newObj any) {
				old, ok1 := oldObj.(*corev1.Pod)
				p, ok2 := newObj.(*corev1.Pod)
				if ok1 && ok2 && k.runs(p) && needsSync(old, p) {
					q.Add(control.Key(p))
				}
			},
			DeleteFunc: func(obj any) {
				// Sync finds the pod gone and forgets its progress.
				if p, ok := obj.(*corev1.Pod); ok && !k.runs(p) {
					return
				}
				if key := control.Key(obj); key != "" {
					q.Add(key)
				}
			},
		},
		control.Nodes: cache.ResourceEventHandlerFuncs{
			AddFunc: func(obj any) {
				if n, ok := obj.(*corev1.Node); ok && k.serves(n.Name) {
					k.noteNode(n)
					q.Add(n.Name)
				}
			},
			UpdateFunc: func(_, newObj any) {
				if n, ok := newObj.(*corev1.Node); ok && k.serves(n.Name) && k.noteNode(n) {
					q.Add(n.Name)
				}
			},
			DeleteFunc: func(obj any) {
				if key := control.Key(obj); key != "" {
					k.forgetNode(key)
				}
			},
		},
	}
}

// noteNode records what a pod's sync reads of n; it reports whether n's
// readiness changed since it was last noted (or n is new), when the pods
// waiting on it must be woken.
func (k *Kubelet) noteNode(n *corev1.Node) bool {
	f := nodeFacts{ready: model.NodeReady(n), hostIP: hostIP(n)}
	k.mu.Lock()
	defer k.mu.Unlock()
	was, known := k.nodes[n.Name]
	k.nodes[n.Name] = f
	return !known || was.ready != f.ready
}

// forgetNode forgets a node the cache no longer has.
func (k *Kubelet) forgetNode(name string) {
	k.mu.Lock()
	defer k.mu.Unlock()
	delete(k.nodes, name)
}

// node is what a pod's sync reads of the node named name, and false when
// the cache has no such node.
func (k *Kubelet) node(name string) (nodeFacts, bool) {
	k.mu.Lock()
	defer k.mu.Unlock()
	f, ok := k.nodes[name]
	return f, ok
}

// runs reports whether the pod is bound to a node this kubelet serves.
func (k *Kubelet) runs(p *corev1.Pod) bool {
	return p.Spec.NodeName != "" && k.serves(p.Spec.NodeName)
}

// needsSync tells the pod updates that change what the kubelet must do from
// the kubelet's own status writes, whose follow-ups it has already scheduled.
func needsSync(old, p *corev1.Pod) bool {
	switch {
	case old.UID != p.UID, old.Spec.NodeName != p.Spec.NodeName:
		return true
	case (old.DeletionTimestamp == nil) != (p.DeletionTimestamp == nil):
		return true
	case !equalGrace(old.DeletionGracePeriodSeconds, p.DeletionGracePeriodSeconds):
		return true
	case len(p.Spec.ReadinessGates) > 0:
		// Another controller owns the gate conditions in the status.
		return true
	}
	return false
}

func equalGrace(a, b *int64) bool {
	if a == nil || b == nil {
		return a == b
	}
	return *a == *b
}

// isNodeKey tells a node's key from a pod's "namespace/name".
func isNodeKey(key string) bool { return !strings.Contains(key, "/") }

// image is what the kubelet knows of one image reference.
type image struct {
	rule ImageRule // the first rule that matches it
	id   string    // the digest reference it is reported as once pulled
}

// image returns what the kubelet knows of ref, worked out once per image.
func (k *Kubelet) image(ref string) image {
	k.mu.Lock()
	defer k.mu.Unlock()
	im, ok := k.images[ref]
	if !ok {
		im.rule, _ = MatchRule(k.rules, ref)
		im.id = imageID(ref)
		k.images[ref] = im
	}
	return im
}

// ruleFor returns the rule of an image.
func (k *Kubelet) ruleFor(ref string) ImageRule { return k.image(ref).rule }

// requeue asks to sync key again at the given time. It asks again on every
// sync rather than remembering what it asked: a queue may fold a waiting
// timer into an earlier add of the same key.
func (k *Kubelet) requeue(key string, at, now time.Time) {
	if k.queue == nil || at.IsZero() {
		return
	}
	if d := at.Sub(now); d > 0 {
		k.queue.AddAfter(key, d)
	} else {
		k.queue.Add(key)
	}
}
