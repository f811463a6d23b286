package canary

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/pager"

	"rollscope/engine/control"
	"rollscope/model"
)

// LabelEarlierCanaries labels every Deployment of namespace ("" for all)
// that carries a canary's annotations but not model.CanaryLabel — a canary
// started by a rollscope that did not write the label — so that consoles,
// whose controllers watch only labelled Deployments, find it and take it
// over once its lease lapses. It lists the Deployments once, a page at a
// time, and returns how many it labelled.
func LabelEarlierCanaries(ctx context.Context, client kubernetes.Interface, namespace string) (int, error) {
	api := client.AppsV1().Deployments(namespace)
	var unlabelled []*appsv1.Deployment
	list := pager.New(pager.SimplePageFunc(func(opts metav1.ListOptions) (runtime.Object, error) {
		return api.List(ctx, opts)
	}))
	err := list.EachListItem(ctx, metav1.ListOptions{}, func(obj runtime.Object) error {
		if d, ok := obj.(*appsv1.Deployment); ok && model.HasCanaryAnnotations(d) && d.Labels[model.CanaryLabel] == "" {
			unlabelled = append(unlabelled, d)
		}
		return nil
	})
	if err != nil {
		return 0, fmt.Errorf("cannot list the deployments to find canaries without their label: %w", err)
	}
	for i, d := range unlabelled {
		if err := label(ctx, client, d.Namespace, d.Name); err != nil {
			return i, err
		}
	}
	return len(unlabelled), nil
}

// relabel puts model.CanaryLabel back on a Deployment whose canary runs
// without it: a watch of the labelled Deployments — a console's — says a
// Deployment was deleted when someone only took the label off, and without
// it no console would hear of the canary again. It reads the Deployment
// from the API, since the watch's word is the same for both: one that is
// gone, or whose canary has ended, is left as it is.
func relabel(ctx context.Context, env *control.Env, namespace, name string) error {
	d, err := env.Client.AppsV1().Deployments(namespace).Get(ctx, name, metav1.GetOptions{})
	if apierrors.IsNotFound(err) {
		return nil
	}
	if err != nil {
		return fmt.Errorf("canary of deployment/%s: read it to see whether it is still there: %w", name, err)
	}
	if !model.HasCanaryAnnotations(d) || d.Labels[model.CanaryLabel] != "" {
		return nil
	}
	err = label(ctx, env.Client, namespace, name)
	if apierrors.IsNotFound(err) || apierrors.IsForbidden(err) {
		// Gone since, or a user who may not write it: one who may,
		// starting a console, labels it (LabelEarlierCanaries).
		return nil
	}
	if err != nil {
		return err
	}
	env.Events.Eventf(d, corev1.EventTypeNormal, "CanaryLabelRestored",
		"Put label %s back: consoles drive a canary only on a Deployment that carries it", model.CanaryLabel)
	return nil
}

// label labels Deployment namespace/name as a canary's.
func label(ctx context.Context, client kubernetes.Interface, namespace, name string) error {
	patch := fmt.Appendf(nil, `{"metadata":{"labels":{%q:"true"}}}`, model.CanaryLabel)
	if _, err := client.AppsV1().Deployments(namespace).Patch(ctx, name, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
		return fmt.Errorf("cannot label deployment %s/%s as a canary's (%w): no console will drive it until it carries %s", namespace, name, err, model.CanaryLabel)
	}
	return nil
}
