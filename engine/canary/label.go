package canary

import (
	"context"
	"fmt"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/pager"

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
	patch := fmt.Appendf(nil, `{"metadata":{"labels":{%q:"true"}}}`, model.CanaryLabel)
	for i, d := range unlabelled {
		if _, err := client.AppsV1().Deployments(d.Namespace).Patch(ctx, d.Name, types.MergePatchType, patch, metav1.PatchOptions{}); err != nil {
			return i, fmt.Errorf("cannot label deployment %s/%s as a canary's (%w): no console will drive it until it carries %s", d.Namespace, d.Name, err, model.CanaryLabel)
		}
	}
	return len(unlabelled), nil
}
