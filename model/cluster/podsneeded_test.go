package cluster_test

import (
	"slices"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/model/cluster"
)

// A fleet that watches pods only where it needs them: a row whose
// namespace's pods the picture does not hold says what kubectl says — never
// a blocker read from pods it does not have —, a pod's Warning event asks
// for the namespace, and once its pods are held the row reads them.
func TestARowWithoutItsNamespacesPodsSaysWhatKubectlSays(t *testing.T) {
	m := rolling()
	crashLooping(m.pods[3], 4) // the new ReplicaSet's running pod
	none := synced
	none.PodsNarrowed = true
	c := cluster.NewCluster()
	var workloads []runtime.Object
	for _, o := range m.objects() {
		if _, pod := o.(*corev1.Pod); !pod {
			workloads = append(workloads, o)
		}
	}
	c.Apply(cluster.Batch{At: at(11), Objects: workloads, Watch: none})
	r := c.Fleet("", at(11))[0]
	if r.State != cluster.FleetRolling || !strings.HasPrefix(r.Why, `Waiting for deployment "frontend" rollout to finish`) {
		t.Fatalf("without shop's pods: %s — %q, want rolling with kubectl's sentence", r.State, r.Why)
	}
	if all, ns := c.PodsNeeded(); all || len(ns) != 0 {
		t.Fatalf("with no Warning seen the fleet needs (all %v) %v, want nothing", all, ns)
	}

	backOff := event("frontend-v2-a.1", "Pod", "frontend-v2-a", "BackOff", "Back-off restarting failed container web", 3, at(11))
	backOff.Type = corev1.EventTypeWarning
	c.Apply(cluster.Batch{At: at(11), Objects: []runtime.Object{backOff}, Watch: none})
	if all, ns := c.PodsNeeded(); all || !slices.Equal(ns, []string{shop}) {
		t.Fatalf("after a pod's BackOff in shop the fleet needs (all %v) %v, want shop's pods", all, ns)
	}

	held := none
	held.PodNamespaces = shop
	var pods []runtime.Object
	for _, p := range m.pods {
		pods = append(pods, p)
	}
	c.Apply(cluster.Batch{At: at(12), Objects: pods, Watch: held})
	if r := c.Fleet("", at(12))[0]; r.State != cluster.FleetCrashLooping || !strings.Contains(r.Why, "frontend-v2-a restarted 4 times") {
		t.Fatalf("with shop's pods held: %s — %q, want crash-looping naming the pod", r.State, r.Why)
	}
}

// While a node is cordoned or drained any workload's pods may be on it:
// the fleet needs every namespace's pods.
func TestACordonedNodeNeedsEveryPod(t *testing.T) {
	c := cluster.NewCluster()
	n := groupNode("node-1", "nodes", "v1", at(0))
	c.Apply(cluster.Batch{At: at(1), Objects: []runtime.Object{n}, Watch: synced})
	if all, _ := c.PodsNeeded(); all {
		t.Fatal("every pod needed with no node cordoned")
	}
	cordoned := n.DeepCopy()
	cordoned.ResourceVersion = "2"
	cordoned.Spec.Unschedulable = true
	c.Apply(cluster.Batch{At: at(2), Objects: []runtime.Object{cordoned}, Watch: synced})
	if all, _ := c.PodsNeeded(); !all {
		t.Fatal("a cordoned node did not ask for every pod")
	}
}

// While every pod lists after the console watched only some, the picture
// says it is not synced — yet a ReplicaSet that appears meanwhile is new,
// not part of a first list: its creation is on the timeline.
func TestAReplicaSetMadeWhileEveryPodListsIsNew(t *testing.T) {
	m := rolling()
	c := cluster.NewCluster()
	c.Apply(cluster.Batch{At: at(9), Objects: []runtime.Object{m.d, m.oldRS}, Watch: synced})
	listing := synced
	listing.Synced, listing.PodsNarrowed = false, true
	c.Apply(cluster.Batch{At: at(10), Watch: listing})
	c.Apply(cluster.Batch{At: at(10), Objects: []runtime.Object{m.newRS}, Watch: listing})
	found := false
	for _, e := range c.Timeline(shop, "frontend") {
		found = found || e.Message == "replicaset/frontend-v2 created with 2 replicas"
	}
	if !found {
		t.Errorf("the new ReplicaSet's creation is not on the timeline: %+v", c.Timeline(shop, "frontend"))
	}
}

// The rollout page opened before its namespace's pods are listed has no
// blocker line rather than one read from pods the picture does not have.
func TestNoBlockerLineWithoutTheNamespacesPods(t *testing.T) {
	m := rolling()
	narrowed := synced
	narrowed.PodsNarrowed = true
	c := cluster.NewCluster()
	c.Apply(cluster.Batch{At: at(11), Objects: []runtime.Object{m.d, m.oldRS, m.newRS}, Watch: narrowed})
	if v, _ := c.Rollout(shop, "frontend", at(11)); v.Blocker != "" {
		t.Errorf("without shop's pods the blocker line is %q, want none", v.Blocker)
	}
	var pods []runtime.Object
	for _, p := range m.pods {
		pods = append(pods, p)
	}
	narrowed.PodNamespaces = shop
	c.Apply(cluster.Batch{At: at(11), Objects: pods, Watch: narrowed})
	if v, _ := c.Rollout(shop, "frontend", at(11)); v.Blocker == "" {
		t.Error("with shop's pods held the rollout has no blocker line")
	}
}

// Once the console asks for every pod, or for a namespace's for a page
// that reads only those, the picture says it is listing them until the
// watch holds them, whatever batches come meanwhile; pods held already are
// not awaited.
func TestAwaitingPodsIsListingUntilTheyCome(t *testing.T) {
	narrowed := synced
	narrowed.PodsNarrowed, narrowed.PodNamespaces = true, "billing"
	withShop := narrowed
	withShop.PodNamespaces = "billing,shop"
	for _, tc := range []struct {
		name, awaited string
		holding       cluster.WatchStatus
	}{
		{"every pod", "", synced},
		{"shop's pods", "shop", withShop},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := cluster.NewCluster()
			c.Apply(cluster.Batch{At: at(1), Watch: narrowed})
			c.AwaitPods(tc.awaited)
			if w := c.Watch(); w.Synced || w.Listing != "Pod" {
				t.Fatalf("awaiting them the status is %+v, want listing pods", w)
			}
			c.Apply(cluster.Batch{At: at(2), Watch: narrowed})
			if w := c.Watch(); w.Synced {
				t.Fatal("a batch without them ended the wait")
			}
			c.Apply(cluster.Batch{At: at(3), Watch: tc.holding})
			if w := c.Watch(); !w.Synced || w.Listing != "" {
				t.Fatalf("with them held the status is %+v, want synced", w)
			}
			c.AwaitPods(tc.awaited)
			if w := c.Watch(); !w.Synced {
				t.Error("a picture holding them awaits them")
			}
		})
	}
	c := cluster.NewCluster()
	c.Apply(cluster.Batch{At: at(1), Watch: narrowed})
	c.AwaitPods("billing")
	if w := c.Watch(); !w.Synced {
		t.Errorf("awaiting billing's pods, which the picture holds, the status is %+v", w)
	}
}
