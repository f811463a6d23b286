package embedded

import (
	"context"
	"errors"
	"fmt"
	"time"

	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/engine/scenario"
	"rollscope/engine/sim"
)

// Restorer is a Backend that can take objects as another cluster held
// them — UIDs, creation times, status kept (kube/memapi's Restore).
type Restorer interface {
	Restore(objs ...runtime.Object) error
}

// Fork starts an embedded cluster holding objs as they were at a moment
// of another cluster (a recording's: rehearse from here), its virtual
// clock standing at that moment, every controller running on them as
// Boot's do on a scenario's. Pods keep their phase, readiness and age;
// the kubelet carries on from their status, and images behave as in a
// scenario without images: rules (the kubelet's default: started in a
// second, ready a second later). namespace is the one the console acts
// in ("default" when the recording spans them all). The clock stays
// stopped until the caller runs it.
func Fork(ctx context.Context, objs []runtime.Object, at time.Time, namespace string, newAPI NewBackend, o Options) (*Cluster, error) {
	if namespace == "" {
		namespace = "default"
	}
	clock := sim.NewClock(at)
	b := newAPI(clock, o.Seed)
	r, ok := b.(Restorer)
	if !ok {
		return nil, errors.New("this embedded API cannot be forked: it does not restore objects")
	}
	sc := &scenario.Scenario{Name: "forked at " + at.Format(time.TimeOnly), Namespace: namespace}
	c, err := Start(ctx, b, clock, sc, o)
	if err != nil {
		return nil, err
	}
	// Loaded once the controllers watch: each sees every object arrive,
	// as after a restart.
	if err := r.Restore(objs...); err != nil {
		c.Runner.Close()
		return nil, fmt.Errorf("cannot fork the recording at %s: %w", at.Format(time.TimeOnly), err)
	}
	return c, nil
}
