// Package objects says, for each workload kind of the registry
// (model/kind), how its objects are reached on a connection: got, listed
// and watched, patched, created and deleted through a kubernetes.Interface
// — a real clientset, or the embedded API (kube/memapi), which is one too.
//
// It exists so that the layers that move workload objects — the watch
// bridge, the controllers' runners, the scenario player, engine/workloads —
// ask one row keyed by kind.Kind instead of each keeping a table or a type
// switch of its own. A new kind adds one row here: Argo's Rollout, a
// custom resource, is reached through the connection's dynamic client
// (custom.go).
package objects

import (
	"context"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	"rollscope/model/argo"
	"rollscope/model/kind"
)

// Row is how one workload kind's objects are reached on a connection.
type Row struct {
	Kind kind.Kind
	// New is an empty object of the kind: the type its caches hold.
	New func() runtime.Object
	// ListWatch is the kind's list and watch in namespace ns ("" for every
	// namespace), as a reflector calls them.
	ListWatch func(c kubernetes.Interface, ns string) ListWatch
	// Get reads one object; the error is the API's.
	Get func(ctx context.Context, c kubernetes.Interface, ns, name string) (kind.Workload, error)
	// Patch sends a patch of type pt to one object.
	Patch func(ctx context.Context, c kubernetes.Interface, ns, name string, pt types.PatchType, body []byte) error
	// Create sends a copy of obj, an object of the kind, to its namespace.
	Create func(ctx context.Context, c kubernetes.Interface, obj runtime.Object) error
	// Writer is the kind's create and status update in namespace ns, for a
	// copy that must carry the status its controller last wrote (a
	// forecast's rehearsal): a create drops the status, a second write
	// puts it back.
	Writer func(c kubernetes.Interface, ns string) Writer
	// DeleteAll deletes every object of the kind in namespace ns.
	DeleteAll func(ctx context.Context, c kubernetes.Interface, ns string, opts metav1.DeleteOptions) error
}

// Object is a typed API object: what a Writer takes and returns.
type Object interface {
	runtime.Object
	metav1.Object
}

// Writer is one kind's create and status update calls.
type Writer interface {
	Create(ctx context.Context, obj Object, opts metav1.CreateOptions) (Object, error)
	UpdateStatus(ctx context.Context, obj Object, opts metav1.UpdateOptions) (Object, error)
}

// ListWatch is one kind's list and watch calls.
type ListWatch interface {
	List(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error)
	Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
}

// ListerWatcher is the kind's list and watch in ns as an informer takes
// them: with streaming lists where c supports them, as client-go's own
// informers are made. A selector, when not "", is a label selector the API
// server applies.
func (r Row) ListerWatcher(c kubernetes.Interface, ns, selector string) cache.ListerWatcher {
	lw := r.ListWatch(c, ns)
	selected := func(o metav1.ListOptions) metav1.ListOptions {
		if selector != "" {
			o.LabelSelector = selector
		}
		return o
	}
	return cache.ToListWatcherWithWatchListSemantics(&cache.ListWatch{
		ListWithContextFunc: func(ctx context.Context, o metav1.ListOptions) (runtime.Object, error) {
			return lw.List(ctx, selected(o))
		},
		WatchFuncWithContext: func(ctx context.Context, o metav1.ListOptions) (watch.Interface, error) {
			return lw.Watch(ctx, selected(o))
		},
	}, c)
}

// rows are the registry's kinds, in its order.
var rows = []Row{
	typed(kind.Deployment, func(c kubernetes.Interface, ns string) client[*appsv1.Deployment, *appsv1.DeploymentList] {
		return c.AppsV1().Deployments(ns)
	}),
	typed(kind.ReplicationController, func(c kubernetes.Interface, ns string) client[*corev1.ReplicationController, *corev1.ReplicationControllerList] {
		return c.CoreV1().ReplicationControllers(ns)
	}),
	typed(kind.StatefulSet, func(c kubernetes.Interface, ns string) client[*appsv1.StatefulSet, *appsv1.StatefulSetList] {
		return c.AppsV1().StatefulSets(ns)
	}),
	typed(kind.DaemonSet, func(c kubernetes.Interface, ns string) client[*appsv1.DaemonSet, *appsv1.DaemonSetList] {
		return c.AppsV1().DaemonSets(ns)
	}),
	customRow[argo.Rollout, argo.RolloutList](kind.Rollout, rollouts),
}

// All is every workload kind's row, in the registry's order (kind.All).
func All() []Row { return append([]Row(nil), rows...) }

// For is the row of kind k; false for a kind that is not a workload.
func For(k kind.Kind) (Row, bool) {
	for _, r := range rows {
		if r.Kind == k {
			return r, true
		}
	}
	return Row{}, false
}

// Builtin is the row of every kind that is not a custom resource
// (kind.Builtin): what the embedded cluster serves, and what a runner of
// rollscope's own controllers watches.
func Builtin() []Row {
	var out []Row
	for _, r := range rows {
		if e, _ := r.Kind.Entry(); e.Custom == "" {
			out = append(out, r)
		}
	}
	return out
}
