package perform_test

import (
	"context"
	"fmt"
	"sync"
	"testing"

	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/engine/perform"
	"rollscope/model/action"
)

// The console sends from several commands at once (a key, a preview, a
// forecast): one Cluster serves them all. Run with -race.
func TestOneClusterServesConcurrentRequests(t *testing.T) {
	var objs []runtime.Object
	for i := range 8 {
		objs = append(objs, groupNode(fmt.Sprintf("node-%d", i), nil))
	}
	c, clock := memCluster(t, objs...)
	p := perform.New(perform.Config{Client: c, Now: clock.Now})
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for i := range 8 {
		n := fmt.Sprintf("node-%d", i)
		wg.Go(func() {
			if _, err := p.Send(context.Background(), action.Request{Action: action.Cordon, Nodes: []string{n}}); err != nil {
				errs <- err
			}
		})
		wg.Go(func() {
			if _, err := p.PreviewDrain(context.Background(), n, action.DrainOptions{}); err != nil {
				errs <- err
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	for i := range 8 {
		if !node(t, c, fmt.Sprintf("node-%d", i)).Spec.Unschedulable {
			t.Errorf("node-%d was not cordoned", i)
		}
	}
}
