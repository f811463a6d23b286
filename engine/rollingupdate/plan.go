package rollingupdate

import (
	"context"
	"fmt"

	"k8s.io/client-go/kubernetes"
)

// Plan is what an update will do, worked out before it is asked for.
type Plan struct {
	Request Request
	// Next is the next controller's name; Rename is true when it takes the
	// old name back at the end.
	Next   string
	Rename bool
	// Container is the container whose image changes, FromImage its image.
	Container, FromImage string
	Replicas             int32
	Limits               Limits
}

// MakePlan reads the controller req.Old and works out the update req asks
// for, refusing what the update would refuse (no such controller, an update
// already under way, no such container, the same image, limits that do not
// resolve). It writes nothing.
func MakePlan(ctx context.Context, client kubernetes.Interface, namespace string, req Request) (Plan, error) {
	u := &Updater{Client: client, Namespace: namespace}
	full := req.WithDefaults()
	old, err := u.get(ctx, req.Old)
	if err != nil {
		return Plan{}, err
	}
	if old == nil {
		return Plan{}, fmt.Errorf("replicationcontroller %q not found in namespace %q", req.Old, namespace)
	}
	if next := old.Annotations[NextAnnotation]; next != "" {
		return Plan{}, fmt.Errorf("replicationcontroller %q is already being updated through %q: let it finish, or abort it first", old.Name, next)
	}
	if src := old.Annotations[SourceAnnotation]; src != "" {
		return Plan{}, fmt.Errorf("replicationcontroller %q is the next controller of an update (%s): update or abort the old one instead", old.Name, src)
	}
	c, err := container(&old.Spec.Template.Spec, full.Container)
	if err != nil {
		return Plan{}, fmt.Errorf("replicationcontroller %q: %w", old.Name, err)
	}
	if c.Image == full.Image && full.ImagePullPolicy == "" {
		return Plan{}, fmt.Errorf("replicationcontroller %q already runs %s: give another image", old.Name, full.Image)
	}
	next, err := nextController(old, full)
	if err != nil {
		return Plan{}, err
	}
	replicas := size(old)
	if replicas <= 0 {
		return Plan{}, fmt.Errorf("replicationcontroller %q has 0 replicas: an update needs at least 1 (scale it up first)", old.Name)
	}
	l, err := NewLimits(replicas, replicas, *full.MaxSurge, *full.MaxUnavailable)
	if err != nil {
		return Plan{}, err
	}
	return Plan{Request: req, Next: next.Name, Rename: req.Next == "", Container: c.Name, FromImage: c.Image, Replicas: replicas, Limits: l}, nil
}
