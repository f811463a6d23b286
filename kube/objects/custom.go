package objects

import (
	"context"
	"fmt"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/dynamic"
	"k8s.io/client-go/kubernetes"

	"rollscope/model/argo"
	"rollscope/model/kind"
)

// A custom resource (Argo's Rollouts and AnalysisRuns) is reached through
// the connection's dynamic client (DynamicOf) and read into rollscope's own
// types (model/argo) with the unstructured converter, so that every layer
// above sees typed objects as it does of the built-in kinds. On a
// connection without a dynamic client every call fails with
// ErrNoCustomResources.

// customResource is one custom resource: where it is served, and its
// object and list types.
type customResource[O any, L any] struct {
	gvr  schema.GroupVersionResource
	kind string // the API kind ("Rollout"), which a created object carries
}

// pointer is *O for an object type O of model/argo.
type pointer[O any] interface {
	*O
	Object
}

func (r customResource[O, L]) in(c kubernetes.Interface, ns string) (dynamic.ResourceInterface, error) {
	d, err := DynamicOf(c)
	if err != nil {
		return nil, err
	}
	return d.Resource(r.gvr).Namespace(ns), nil
}

// fromUnstructured reads u into a new *T.
func fromUnstructured[T any](u map[string]any) (*T, error) {
	out := new(T)
	if err := runtime.DefaultUnstructuredConverter.FromUnstructured(u, out); err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", fmt.Sprintf("%T", out), err)
	}
	return out, nil
}

// customListWatch is a custom resource's list and watch in a namespace,
// typed.
type customListWatch[O any, L any, P pointer[O]] struct {
	r  customResource[O, L]
	c  kubernetes.Interface
	ns string
}

func (lw customListWatch[O, L, P]) List(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	in, err := lw.r.in(lw.c, lw.ns)
	if err != nil {
		return nil, err
	}
	l, err := in.List(ctx, opts)
	if err != nil {
		return nil, err
	}
	typed, err := fromUnstructured[L](l.UnstructuredContent())
	if err != nil {
		return nil, err
	}
	return any(typed).(runtime.Object), nil
}

// Watch converts each event's object; an event whose object does not
// read as the type becomes a watch error, which the reflector reports and
// recovers from by listing again.
func (lw customListWatch[O, L, P]) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	in, err := lw.r.in(lw.c, lw.ns)
	if err != nil {
		return nil, err
	}
	w, err := in.Watch(ctx, opts)
	if err != nil {
		return nil, err
	}
	return watch.Filter(w, func(e watch.Event) (watch.Event, bool) {
		u, ok := e.Object.(*unstructured.Unstructured)
		if !ok {
			return e, true
		}
		o, err := fromUnstructured[O](u.Object)
		if err != nil {
			return watch.Event{Type: watch.Error, Object: &metav1.Status{Status: metav1.StatusFailure, Message: err.Error()}}, true
		}
		e.Object = P(o)
		return e, true
	}), nil
}

// toUnstructured is obj with its apiVersion and kind set, as a create
// sends it.
func (r customResource[O, L]) toUnstructured(obj runtime.Object) (*unstructured.Unstructured, error) {
	m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(obj)
	if err != nil {
		return nil, err
	}
	u := &unstructured.Unstructured{Object: m}
	u.SetAPIVersion(r.gvr.GroupVersion().String())
	u.SetKind(r.kind)
	return u, nil
}

// row is the registry row of a custom workload kind k.
func customRow[O any, L any, P pointer[O]](k kind.Kind, r customResource[O, L]) Row {
	patch := func(ctx context.Context, c kubernetes.Interface, ns, name string, pt types.PatchType, body []byte, sub ...string) error {
		in, err := r.in(c, ns)
		if err != nil {
			return err
		}
		_, err = in.Patch(ctx, name, pt, body, metav1.PatchOptions{}, sub...)
		return err
	}
	return Row{
		Kind:      k,
		New:       func() runtime.Object { return P(new(O)) },
		ListWatch: func(c kubernetes.Interface, ns string) ListWatch { return customListWatch[O, L, P]{r, c, ns} },
		Get: func(ctx context.Context, c kubernetes.Interface, ns, name string) (kind.Workload, error) {
			in, err := r.in(c, ns)
			if err != nil {
				return nil, err
			}
			u, err := in.Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				return nil, err
			}
			o, err := fromUnstructured[O](u.Object)
			if err != nil {
				return nil, err
			}
			w, _ := kind.Of(P(o))
			return w, nil
		},
		Patch: func(ctx context.Context, c kubernetes.Interface, ns, name string, pt types.PatchType, body []byte) error {
			return patch(ctx, c, ns, name, pt, body)
		},
		Create: func(ctx context.Context, c kubernetes.Interface, obj runtime.Object) error {
			_, err := customWriter[O, L, P]{r, c, obj.(Object).GetNamespace()}.Create(ctx, obj.(Object), metav1.CreateOptions{})
			return err
		},
		Writer: func(c kubernetes.Interface, ns string) Writer { return customWriter[O, L, P]{r, c, ns} },
		DeleteAll: func(ctx context.Context, c kubernetes.Interface, ns string, opts metav1.DeleteOptions) error {
			in, err := r.in(c, ns)
			if err != nil {
				return err
			}
			return in.DeleteCollection(ctx, opts, metav1.ListOptions{})
		},
	}
}

// customWriter is a custom resource's create and status update.
type customWriter[O any, L any, P pointer[O]] struct {
	r  customResource[O, L]
	c  kubernetes.Interface
	ns string
}

func (w customWriter[O, L, P]) write(obj Object, send func(dynamic.ResourceInterface, *unstructured.Unstructured) (*unstructured.Unstructured, error)) (Object, error) {
	in, err := w.r.in(w.c, w.ns)
	if err != nil {
		return nil, err
	}
	u, err := w.r.toUnstructured(obj)
	if err != nil {
		return nil, err
	}
	got, err := send(in, u)
	if err != nil {
		return nil, err
	}
	o, err := fromUnstructured[O](got.Object)
	if err != nil {
		return nil, err
	}
	return P(o), nil
}

func (w customWriter[O, L, P]) Create(ctx context.Context, obj Object, opts metav1.CreateOptions) (Object, error) {
	return w.write(obj, func(in dynamic.ResourceInterface, u *unstructured.Unstructured) (*unstructured.Unstructured, error) {
		return in.Create(ctx, u, opts)
	})
}

func (w customWriter[O, L, P]) UpdateStatus(ctx context.Context, obj Object, opts metav1.UpdateOptions) (Object, error) {
	return w.write(obj, func(in dynamic.ResourceInterface, u *unstructured.Unstructured) (*unstructured.Unstructured, error) {
		return in.UpdateStatus(ctx, u, opts)
	})
}

var (
	rollouts     = customResource[argo.Rollout, argo.RolloutList]{gvr: argo.Rollouts, kind: "Rollout"}
	analysisRuns = customResource[argo.AnalysisRun, argo.AnalysisRunList]{gvr: argo.AnalysisRuns, kind: "AnalysisRun"}
)

// AnalysisRuns are the list and watch of Argo's AnalysisRuns in namespace
// ns ("" for every namespace): no workload kind, but what decides a
// Rollout's analysis steps, watched beside its Rollouts.
func AnalysisRuns(c kubernetes.Interface, ns string) ListWatch {
	return customListWatch[argo.AnalysisRun, argo.AnalysisRunList, *argo.AnalysisRun]{analysisRuns, c, ns}
}
