package rollingupdate

import (
	"context"
	"fmt"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/control"
)

// Ask requests an update of controller req.Old from Controller by writing
// req as its RequestAnnotation: the console's key and a scenario's setImage
// both start an update this way, so the update runs wherever Controller
// runs (the embedded cluster, or rollscope's runner against a live one).
func Ask(ctx context.Context, client kubernetes.Interface, namespace string, req Request) error {
	if req.Image == "" {
		return fmt.Errorf("rolling update of replicationcontroller %q: give the new image", req.Old)
	}
	return annotate(ctx, client, namespace, req.Old, func(rc *corev1.ReplicationController) error {
		if src := rc.Annotations[SourceAnnotation]; src != "" && rc.Annotations[NextAnnotation] == "" {
			return fmt.Errorf("replicationcontroller %q is the next controller of an update (%s): update or abort the old one instead", rc.Name, src)
		}
		if _, err := container(&rc.Spec.Template.Spec, req.Container); err != nil {
			return fmt.Errorf("rolling update of replicationcontroller %q: %w", rc.Name, err)
		}
		rc.Annotations[RequestAnnotation] = req.Annotation()
		return nil
	})
}

// AskAbort asks Controller to roll back the update of controller name: the
// old controller grows back to its original size and the next one goes. It
// keeps the limits the update was asked with.
func AskAbort(ctx context.Context, client kubernetes.Interface, namespace, name string) error {
	return annotate(ctx, client, namespace, name, func(rc *corev1.ReplicationController) error {
		next := rc.Annotations[NextAnnotation]
		if next == "" {
			if _, renaming := rc.Annotations[RenamingAnnotation]; renaming {
				return errRenaming(rc.Name, "")
			}
			return fmt.Errorf("replicationcontroller %q has no update in progress, so there is nothing to abort; to go back to an older version, start a new rolling update with the old image", rc.Name)
		}
		if _, err := client.CoreV1().ReplicationControllers(namespace).Get(ctx, next, metav1.GetOptions{}); apierrors.IsNotFound(err) {
			return fmt.Errorf("cannot abort the update of replicationcontroller %q: its next controller %q does not exist, so there is nothing to undo; to go back to an older version, start a new rolling update with the old image", rc.Name, next)
		}
		req := Request{Old: rc.Name}
		if v, ok := rc.Annotations[RequestAnnotation]; ok {
			if r, err := ParseRequest(rc.Name, v); err == nil {
				req = r
			}
		}
		req.Rollback = true
		rc.Annotations[RequestAnnotation] = req.Annotation()
		return nil
	})
}

// annotate changes controller name with change and writes it, reading it
// again when someone else wrote in between.
func annotate(ctx context.Context, client kubernetes.Interface, namespace, name string, change func(*corev1.ReplicationController) error) error {
	rcs := client.CoreV1().ReplicationControllers(namespace)
	return control.RetryOnConflict(func() error {
		rc, err := rcs.Get(ctx, name, metav1.GetOptions{})
		if apierrors.IsNotFound(err) {
			return fmt.Errorf("replicationcontroller %q not found in namespace %q (list them with kubectl get rc)", name, namespace)
		}
		if err != nil {
			return fmt.Errorf("read replicationcontroller %q: %w", name, err)
		}
		rc = rc.DeepCopy()
		if rc.Annotations == nil {
			rc.Annotations = map[string]string{}
		}
		if err := change(rc); err != nil {
			return err
		}
		if _, err := rcs.Update(ctx, rc, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("ask for the rolling update of replicationcontroller %q: %w", name, err)
		}
		return nil
	})
}
