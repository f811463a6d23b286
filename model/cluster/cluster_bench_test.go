package cluster_test

import (
	"fmt"
	"strconv"
	"testing"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/model/cluster"
)

// bigCluster holds deployments × podsEach pods spread over nodes nodes,
// every object with a resourceVersion as an informer delivers it.
func bigCluster(deployments, podsEach, nodes int) (*cluster.Cluster, []*corev1.Pod) {
	var objs []runtime.Object
	var pods []*corev1.Pod
	for i := range nodes {
		n := groupNode(fmt.Sprintf("node-%04d", i), "nodes", "v1", at(0))
		n.ResourceVersion = "1"
		objs = append(objs, n)
	}
	for i := range deployments {
		d := deployment(fmt.Sprintf("app-%03d", i), "web:v2", int32(podsEach), "2")
		old := ownedReplicaSet(d, "v1", "1", "web:v1", int32(podsEach/2), int32(podsEach/2), at(0))
		cur := ownedReplicaSet(d, "v2", "2", "web:v2", int32(podsEach-podsEach/2), 0, at(5))
		objs = append(objs, d, old, cur)
		for j := range podsEach {
			rs := old
			if j%2 == 1 {
				rs = cur
			}
			p := runningPod(rs, strconv.Itoa(j), fmt.Sprintf("node-%04d", (i*podsEach+j)%nodes))
			p.ResourceVersion = "1"
			objs = append(objs, p)
			pods = append(pods, p)
		}
	}
	c := cluster.NewCluster()
	c.Apply(cluster.Batch{At: at(0), Objects: objs, Watch: synced})
	return c, pods
}

// A batch of 1,000 pods changing state in a 10,000-pod, 1,000-node cluster:
// what every UI tick costs during a large rollout.
func BenchmarkApplyThousandPods(b *testing.B) {
	c, pods := bigCluster(10, 1000, 1000)
	// Two versions of 1,000 pods, every fifth one, alternately ready and
	// not, so that each batch really changes them.
	var batches [2][]runtime.Object
	for i := 0; i < len(pods) && len(batches[0]) < 1000; i += 5 {
		for v := range batches {
			p := pods[i].DeepCopy()
			p.ResourceVersion = strconv.Itoa(2 + v)
			if v == 0 {
				p.Status.Conditions[0].Status = corev1.ConditionFalse
				p.Status.ContainerStatuses[0].Ready = false
			}
			batches[v] = append(batches[v], p)
		}
	}
	cpuLoop(b, nil, func(i int) {
		if !c.Apply(cluster.Batch{At: at(1 + i), Objects: batches[i%2], Watch: synced}) {
			b.Fatal("Apply saw no change in a batch of changed pods")
		}
	})
}

// The rollout view of one deployment of 10,000 pods.
func BenchmarkRolloutTenThousandPods(b *testing.B) {
	c, _ := bigCluster(1, 10000, 1000)
	cpuLoop(b, nil, func(_ int) {
		v, ok := c.Rollout(shop, "app-000", at(10))
		if !ok || len(v.ReplicaSets) != 2 || len(v.ReplicaSets[0].Pods) != 5000 {
			b.Fatalf("Rollout = %v with %d ReplicaSets, want 2 of 5,000 pods", ok, len(v.ReplicaSets))
		}
	})
}

// What the console does on each batch during a rollout of 10,000 pods: 100
// of the new ReplicaSet's pods change readiness, then the rollout view is
// read.
func BenchmarkRolloutTenThousandPodsChanging(b *testing.B) {
	c, pods := bigCluster(1, 10000, 1000)
	var batches [2][]runtime.Object
	for i := 1; i < len(pods) && len(batches[0]) < 100; i += 2 * 25 {
		for v := range batches {
			p := pods[i].DeepCopy()
			p.ResourceVersion = strconv.Itoa(2 + v)
			if v == 0 {
				p.Status.Conditions[0].Status = corev1.ConditionFalse
				p.Status.ContainerStatuses[0].Ready = false
			}
			batches[v] = append(batches[v], p)
		}
	}
	cpuLoop(b, nil, func(n int) {
		c.Apply(cluster.Batch{At: at(1 + n), Objects: batches[n%2], Watch: synced})
		v, ok := c.Rollout(shop, "app-000", at(10))
		if !ok || len(v.ReplicaSets) != 2 || len(v.ReplicaSets[0].Pods) != 5000 {
			b.Fatalf("Rollout = %v with %d ReplicaSets, want 2 of 5,000 pods", ok, len(v.ReplicaSets))
		}
	})
}

// The node list of 1,000 nodes holding 10,000 pods, read on every refresh:
// as it was, and after one pod left or came back on a node (a rollout's
// refresh), which the read counts again.
func BenchmarkNodesThousand(b *testing.B) {
	c, pods := bigCluster(10, 1000, 1000)
	read := func(_ int) {
		if rows := c.Nodes(); len(rows) != 1000 {
			b.Fatalf("Nodes = %d rows, want 1,000", len(rows))
		}
	}
	b.Run("unchanged", func(b *testing.B) { cpuLoop(b, nil, read) })
	b.Run("a pod moved", func(b *testing.B) {
		cpuLoop(b, func(i int) {
			p := pods[0].DeepCopy()
			p.ResourceVersion = strconv.Itoa(i + 2)
			if i%2 == 0 {
				p.Status.Phase = corev1.PodSucceeded
			}
			c.Apply(cluster.Batch{At: at(1), Objects: []runtime.Object{p}, Watch: synced})
		}, read)
	})
}
