package objects

import (
	"context"
	"reflect"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
	"k8s.io/client-go/kubernetes"

	"rollscope/model/kind"
)

// object is a typed API object, as client-go's typed clients take and
// return it (*appsv1.StatefulSet).
type object interface {
	runtime.Object
	metav1.Object
}

// client is one kind's typed client in a namespace, as
// c.AppsV1().StatefulSets(ns) is.
type client[O object, L runtime.Object] interface {
	Get(ctx context.Context, name string, opts metav1.GetOptions) (O, error)
	List(ctx context.Context, opts metav1.ListOptions) (L, error)
	Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error)
	Patch(ctx context.Context, name string, pt types.PatchType, data []byte, opts metav1.PatchOptions, subresources ...string) (O, error)
	Create(ctx context.Context, obj O, opts metav1.CreateOptions) (O, error)
	UpdateStatus(ctx context.Context, obj O, opts metav1.UpdateOptions) (O, error)
	DeleteCollection(ctx context.Context, opts metav1.DeleteOptions, listOpts metav1.ListOptions) error
}

// typed is the row of a kind the clientset serves with a typed client.
func typed[O object, L runtime.Object](k kind.Kind, in func(c kubernetes.Interface, ns string) client[O, L]) Row {
	return Row{
		Kind: k,
		New: func() runtime.Object {
			return reflect.New(reflect.TypeFor[O]().Elem()).Interface().(runtime.Object)
		},
		ListWatch: func(c kubernetes.Interface, ns string) ListWatch { return listWatch[O, L]{in(c, ns)} },
		Get: func(ctx context.Context, c kubernetes.Interface, ns, name string) (kind.Workload, error) {
			o, err := in(c, ns).Get(ctx, name, metav1.GetOptions{})
			if err != nil {
				return nil, err
			}
			w, _ := kind.Of(o)
			return w, nil
		},
		Patch: func(ctx context.Context, c kubernetes.Interface, ns, name string, pt types.PatchType, body []byte) error {
			_, err := in(c, ns).Patch(ctx, name, pt, body, metav1.PatchOptions{})
			return err
		},
		Create: func(ctx context.Context, c kubernetes.Interface, obj runtime.Object) error {
			o := obj.DeepCopyObject().(O)
			_, err := in(c, o.GetNamespace()).Create(ctx, o, metav1.CreateOptions{})
			return err
		},
		Writer: func(c kubernetes.Interface, ns string) Writer { return writer[O, L]{in(c, ns)} },
		DeleteAll: func(ctx context.Context, c kubernetes.Interface, ns string, opts metav1.DeleteOptions) error {
			return in(c, ns).DeleteCollection(ctx, opts, metav1.ListOptions{})
		},
	}
}

// listWatch is a typed client's list and watch, the list as a
// runtime.Object.
type listWatch[O object, L runtime.Object] struct{ c client[O, L] }

func (lw listWatch[O, L]) List(ctx context.Context, opts metav1.ListOptions) (runtime.Object, error) {
	return lw.c.List(ctx, opts)
}

func (lw listWatch[O, L]) Watch(ctx context.Context, opts metav1.ListOptions) (watch.Interface, error) {
	return lw.c.Watch(ctx, opts)
}

// writer is a typed client's create and status update, on Objects.
type writer[O object, L runtime.Object] struct{ c client[O, L] }

func (w writer[O, L]) Create(ctx context.Context, obj Object, opts metav1.CreateOptions) (Object, error) {
	return w.c.Create(ctx, obj.(O), opts)
}

func (w writer[O, L]) UpdateStatus(ctx context.Context, obj Object, opts metav1.UpdateOptions) (Object, error) {
	return w.c.UpdateStatus(ctx, obj.(O), opts)
}
