package rollingupdate_test

import (
	"context"
	"io"
	"path/filepath"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"

	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"

	. "rollscope/engine/rollingupdate"
)

// BenchmarkRehearsal100 is `rollscope rolling-update web --image=... --scenario`
// on a 100-replica controller: the headless driver against the embedded
// cluster on virtual time, from the first step to the rename.
func BenchmarkRehearsal100(b *testing.B) {
	for b.Loop() {
		b.StopTimer()
		sc, err := scenario.Load(filepath.Join("testdata", "legacy-rc.yaml"))
		if err != nil {
			b.Fatal(err)
		}
		sc.NodeGroups[0].Size = 10
		for _, obj := range sc.Objects {
			if rc, ok := obj.(*corev1.ReplicationController); ok {
				n := int32(100)
				rc.Spec.Replicas = &n
			}
		}
		clock := sim.NewClock(epoch)
		api := memapi.New(memapi.Options{Clock: clock, Seed: sc.Seed})
		c, err := embedded.Start(context.Background(), api, clock, sc, embedded.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := c.Run(context.Background(), 0); err != nil {
			b.Fatal(err)
		}
		u := &Updater{Client: c.Client, Namespace: "default", Now: clock.Now}
		req := Request{Old: "web", Image: newImage, UpdatePeriod: Duration(5 * time.Second)}
		b.StartTimer()
		if err := Run(context.Background(), u, req, time.Minute, VirtualClock{Runner: c.Runner}, io.Discard); err != nil {
			b.Fatal(err)
		}
		c.Runner.Close()
	}
}
