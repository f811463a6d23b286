package drain

import (
	"context"
	"fmt"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/control"
	"rollscope/model"
)

// progress are the annotations a drain writes; a new request clears them.
var progress = []string{model.DrainStateAnnotation, model.DrainStartedAnnotation, model.DrainPodsLeftAnnotation, model.DrainBlockedAnnotation, model.DrainMessageAnnotation}

// Request asks the drain controller to drain node with o, replacing any
// earlier request and its recorded outcome. It is what the console's `d` and
// the scenario action `drain` call.
func Request(ctx context.Context, c kubernetes.Interface, node string, o Options) error {
	if err := o.Validate(); err != nil {
		return fmt.Errorf("cannot drain node %q: %w", node, err)
	}
	return update(ctx, c, node, "drain", func(ann map[string]string) {
		for _, k := range progress {
			delete(ann, k)
		}
		ann[model.DrainRequestAnnotation] = o.encode()
	})
}

// Cordon marks node unschedulable (kubectl cordon); Uncordon undoes it.
func Cordon(ctx context.Context, c kubernetes.Interface, node string) error {
	return setUnschedulable(ctx, c, node, true)
}

// Uncordon marks node schedulable again (kubectl uncordon).
func Uncordon(ctx context.Context, c kubernetes.Interface, node string) error {
	return setUnschedulable(ctx, c, node, false)
}

func setUnschedulable(ctx context.Context, c kubernetes.Interface, node string, want bool) error {
	verb := "uncordon"
	if want {
		verb = "cordon"
	}
	return control.RetryOnConflict(func() error {
		n, err := c.CoreV1().Nodes().Get(ctx, node, metav1.GetOptions{})
		if err != nil {
			return notFound(verb, node, err)
		}
		if n.Spec.Unschedulable == want {
			return nil
		}
		n.Spec.Unschedulable = want
		if _, err := c.CoreV1().Nodes().Update(ctx, n, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("unable to %s node %q: %w", verb, node, err)
		}
		return nil
	})
}

// update changes a node's annotations with a read-modify-write, retried on
// conflicts.
func update(ctx context.Context, c kubernetes.Interface, node, verb string, change func(map[string]string)) error {
	return control.RetryOnConflict(func() error {
		n, err := c.CoreV1().Nodes().Get(ctx, node, metav1.GetOptions{})
		if err != nil {
			return notFound(verb, node, err)
		}
		if n.Annotations == nil {
			n.Annotations = map[string]string{}
		}
		change(n.Annotations)
		if _, err := c.CoreV1().Nodes().Update(ctx, n, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("cannot %s node %q: write its annotations: %w", verb, node, err)
		}
		return nil
	})
}

func notFound(verb, node string, err error) error {
	if apierrors.IsNotFound(err) {
		return fmt.Errorf("cannot %s node %q: no such node (it may have been deleted or replaced; list the nodes to pick another): %w", verb, node, err)
	}
	return fmt.Errorf("cannot %s node %q: read it: %w", verb, node, err)
}
