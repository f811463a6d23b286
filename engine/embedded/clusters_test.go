package embedded_test

import (
	"context"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
)

// The built-in regions: three clusters on one clock, each rolling only by
// its own actions — v2 everywhere but failing in ap-south — and a full-speed
// run with --exit-status names the cluster that failed.
func TestRegionsRollEachClusterOnItsOwnOnOneClock(t *testing.T) {
	sc, err := scenario.Load("regions")
	if err != nil {
		t.Fatal(err)
	}
	cs, err := embedded.BootClusters(context.Background(), sc, func(clock *sim.Clock, seed int64) embedded.Backend {
		return memapi.New(memapi.Options{Clock: clock, Seed: seed})
	}, func(string) embedded.Options { return embedded.Options{ExitStatus: true} })
	if err != nil {
		t.Fatal(err)
	}
	defer cs.Close()
	for _, c := range cs {
		if c.Clock() != cs.Clock() {
			t.Fatalf("%s runs on a clock of its own", c.Scenario.Cluster)
		}
	}
	_, err = cs.Run(context.Background(), 0)
	if err == nil || !strings.HasPrefix(err.Error(), "ap-south: ") || strings.Contains(err.Error(), "eu-west") || strings.Contains(err.Error(), "us-east") {
		t.Fatalf("exit status %v, want ap-south's failure alone", err)
	}
	for _, c := range cs {
		d, err := c.Client.AppsV1().Deployments("default").Get(context.Background(), "checkout", metav1.GetOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if img := d.Spec.Template.Spec.Containers[0].Image; !strings.HasSuffix(img, ":v2") {
			t.Errorf("%s: checkout's image %s, want v2", c.Scenario.Cluster, img)
		}
		ready := d.Status.UpdatedReplicas == 6 && d.Status.AvailableReplicas == 6
		if want := c.Scenario.Cluster != "ap-south"; ready != want {
			t.Errorf("%s: %d updated, %d available; rolled out %v, want %v", c.Scenario.Cluster, d.Status.UpdatedReplicas, d.Status.AvailableReplicas, ready, want)
		}
	}
}

// What runs one cluster (a rolling-update rehearsal) refuses a scenario of
// several, in one line at its clusters:.
func TestBootRefusesAScenarioOfSeveralClusters(t *testing.T) {
	sc, err := scenario.Load("regions")
	if err != nil {
		t.Fatal(err)
	}
	_, err = embedded.Boot(context.Background(), sc, func(clock *sim.Clock, seed int64) embedded.Backend {
		return memapi.New(memapi.Options{Clock: clock, Seed: seed})
	}, embedded.Options{})
	if err == nil || !strings.HasPrefix(err.Error(), `regions.yaml:19: scenario "regions" runs several clusters (eu-west, us-east, ap-south)`) {
		t.Fatalf("got %v", err)
	}
}
