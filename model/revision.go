package model

import (
	"fmt"
	"reflect"
	"strconv"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Revision is the object's deployment.kubernetes.io/revision. An object
// without the annotation is revision 0; one that does not parse is an error.
func Revision(obj metav1.Object) (int64, error) {
	if obj == nil || reflect.ValueOf(obj).IsNil() {
		return 0, nil
	}
	v, ok := obj.GetAnnotations()[RevisionAnnotation]
	if !ok {
		return 0, nil
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil {
		return 0, fmt.Errorf("read revision of %s: annotation %s=%q is not an integer: %w", obj.GetName(), RevisionAnnotation, v, err)
	}
	return n, nil
}

// MaxRevision is the highest revision among the ReplicaSets (0 if none);
// revisions that do not parse are skipped.
func MaxRevision(rss []*appsv1.ReplicaSet) int64 {
	var max int64
	for _, rs := range rss {
		if rs == nil {
			continue
		}
		if v, err := Revision(rs); err == nil && v > max {
			max = v
		}
	}
	return max
}

// LastRevision is the second-highest revision among the ReplicaSets: the one
// `kubectl rollout undo` and the rollback annotation go back to.
func LastRevision(rss []*appsv1.ReplicaSet) int64 {
	var max, second int64
	for _, rs := range rss {
		if rs == nil {
			continue
		}
		v, err := Revision(rs)
		if err != nil {
			continue
		}
		if v >= max {
			second, max = max, v
		} else if v > second {
			second = v
		}
	}
	return second
}

// SetDeploymentRevision records revision on the deployment's annotations and
// reports whether it changed.
func SetDeploymentRevision(d *appsv1.Deployment, revision string) bool {
	if d.Annotations == nil {
		d.Annotations = map[string]string{}
	}
	if d.Annotations[RevisionAnnotation] == revision {
		return false
	}
	d.Annotations[RevisionAnnotation] = revision
	return true
}
