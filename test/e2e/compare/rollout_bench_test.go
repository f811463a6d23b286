package compare

import (
	"context"
	"fmt"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/embedded"
	"rollscope/engine/live"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
	"rollscope/test/e2e/e2etest"
)

const rollout100 = "../testdata/rollout-100.yaml"

// BenchmarkRollout100 runs rollout-100 (100 replicas, 25%/25%, a new image
// at 20s) embedded at full speed and live on the real control plane. Both
// report "scenario-s", the scenario's own duration (virtual time embedded,
// wall time live), and "rollout-s", from the new image to the rollout's end;
// ns/op is the wall time of one run.
func BenchmarkRollout100(b *testing.B) {
	sc, err := scenario.Load(rollout100)
	if err != nil {
		b.Fatal(err)
	}
	setImage := sc.Actions[0].At

	b.Run("embedded", func(b *testing.B) {
		var elapsed time.Duration
		for b.Loop() {
			clock := sim.NewClock(time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC))
			api := memapi.New(memapi.Options{Clock: clock, Seed: sc.Seed})
			cl, err := embedded.Start(b.Context(), api, clock, sc, embedded.Options{})
			if err != nil {
				b.Fatal(err)
			}
			if _, err := cl.Run(b.Context(), 0); err != nil {
				b.Fatal(err)
			}
			elapsed = cl.Elapsed()
		}
		b.ReportMetric(elapsed.Seconds(), "scenario-s")
		b.ReportMetric((elapsed - setImage).Seconds(), "rollout-s")
	})

	b.Run("live", func(b *testing.B) {
		client := e2etest.Start(b, e2etest.Setup{Nodes: live.Nodes{Groups: sc.NodeGroups, Images: sc.Images}}).Admin
		var total, rollout time.Duration
		run := 0
		for b.Loop() {
			run++
			total, rollout = runLive(b, client, sc, fmt.Sprintf("rollout-100-%d", run))
		}
		b.ReportMetric(total.Seconds(), "scenario-s")
		b.ReportMetric(rollout.Seconds(), "rollout-s")
	})
}

// runLive plays rollout-100 on the real cluster in namespace ns, on the wall
// clock: the Deployment at 0, its image changed at the action's time, then
// until the rollout has finished.
func runLive(b *testing.B, client kubernetes.Interface, sc *scenario.Scenario, ns string) (total, rollout time.Duration) {
	ctx := b.Context()
	if _, err := client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}); err != nil {
		b.Fatal(err)
	}
	// Pods are refused until the namespace's default service account exists;
	// wait for it so that the controller manager's back-off is not measured.
	waitFor(b, "the default service account", func() (bool, error) {
		_, err := client.CoreV1().ServiceAccounts(ns).Get(ctx, "default", metav1.GetOptions{})
		return err == nil, nil
	})
	var name string
	start := time.Now()
	for _, obj := range sc.Objects {
		d, ok := obj.(*appsv1.Deployment)
		if !ok {
			b.Fatalf("rollout-100 live: only Deployments are played, not %T", obj)
		}
		d = d.DeepCopy()
		d.Namespace, name = ns, d.Name
		if _, err := client.AppsV1().Deployments(ns).Create(ctx, d, metav1.CreateOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	a := sc.Actions[0]
	if a.Kind != scenario.ActionSetImage || len(sc.Actions) != 1 {
		b.Fatalf("rollout-100 live plays a single setImage, the scenario has %+v", sc.Actions)
	}
	time.Sleep(time.Until(start.Add(a.At)))
	changed := time.Now()
	d, err := client.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		b.Fatal(err)
	}
	for i := range d.Spec.Template.Spec.Containers {
		if d.Spec.Template.Spec.Containers[i].Name == a.Container {
			d.Spec.Template.Spec.Containers[i].Image = a.Image
		}
	}
	if _, err := client.AppsV1().Deployments(ns).Update(ctx, d, metav1.UpdateOptions{}); err != nil {
		b.Fatal(err)
	}
	waitFor(b, "the rollout to finish", func() (bool, error) {
		d, err := client.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, err
		}
		want := *d.Spec.Replicas
		st := d.Status
		return st.ObservedGeneration >= d.Generation && st.Replicas == want && st.UpdatedReplicas == want &&
			st.AvailableReplicas == want && progressReason(d) == "NewReplicaSetAvailable", nil
	})
	end := time.Now()
	return end.Sub(start), end.Sub(changed)
}

func progressReason(d *appsv1.Deployment) string {
	for _, c := range d.Status.Conditions {
		if c.Type == appsv1.DeploymentProgressing {
			return c.Reason
		}
	}
	return ""
}

func waitFor(b *testing.B, what string, cond func() (bool, error)) {
	b.Helper()
	var last error
	err := wait.PollUntilContextTimeout(b.Context(), 100*time.Millisecond, 5*time.Minute, true, func(context.Context) (bool, error) {
		ok, err := cond()
		last = err
		return ok, nil
	})
	if err != nil {
		b.Fatalf("waiting for %s: %v (last error: %v)", what, err, last)
	}
}
