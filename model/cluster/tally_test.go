package cluster

import (
	"fmt"
	"maps"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/model"
)

// What Apply keeps (each node's active pods, each ReplicaSet's blocker
// tally and pod rows) must be what counting every pod from scratch gives,
// after any sequence of pods coming, changing phase, readiness, node and
// owner, terminating and going, and nodes coming and going.
func TestKeptCountsEqualRecount(t *testing.T) {
	for seed := range uint64(20) {
		t.Run(strconv.FormatUint(seed, 10), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 17))
			c := NewCluster()
			version := 0
			var sent []*corev1.Pod // every pod version sent, to send again changed only in version
			for batch := range 60 {
				var b Batch
				b.At = tallyBase.Add(time.Duration(batch) * time.Second)
				for range 1 + rng.IntN(12) {
					version++
					switch r := rng.IntN(10); {
					case r < 2:
						ns, name := randomPodName(rng)
						b.Deleted = append(b.Deleted, ObjectRef{Kind: "Pod", Namespace: ns, Name: name})
					case r < 3:
						name := "node-" + strconv.Itoa(rng.IntN(5))
						if rng.IntN(2) == 0 {
							b.Deleted = append(b.Deleted, ObjectRef{Kind: "Node", Name: name})
						} else {
							b.Objects = append(b.Objects, &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, ResourceVersion: strconv.Itoa(version)}})
						}
					case r < 5 && len(sent) > 0:
						// A change the blocker does not read, as a label's.
						p := sent[rng.IntN(len(sent))].DeepCopy()
						p.ResourceVersion = strconv.Itoa(version)
						b.Objects = append(b.Objects, p)
					default:
						p := randomPod(rng, version)
						sent = append(sent, p)
						b.Objects = append(b.Objects, p)
					}
				}
				c.Apply(b)
				checkRecount(t, c, rng, fmt.Sprintf("after batch %d", batch))
			}
		})
	}
}

var tallyBase = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

func randomPodName(rng *rand.Rand) (namespace, name string) {
	return []string{"shop", "ops"}[rng.IntN(2)], "pod-" + strconv.Itoa(rng.IntN(40))
}

// randomPod is a pod in any state the blocker tells apart, with few enough
// owners, nodes, names and times that they meet and tie.
func randomPod(rng *rand.Rand, version int) *corev1.Pod {
	ns, name := randomPodName(rng)
	moment := func() metav1.Time { return metav1.NewTime(tallyBase.Add(time.Duration(rng.IntN(20)) * time.Second)) }
	p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
		Namespace: ns, Name: name, ResourceVersion: strconv.Itoa(version), CreationTimestamp: moment(),
	}}
	if owner := rng.IntN(5); owner < 4 {
		p.OwnerReferences = []metav1.OwnerReference{{Kind: "ReplicaSet", Name: "rs", UID: types.UID("rs-" + strconv.Itoa(owner)), Controller: new(true)}}
	}
	if n := rng.IntN(6); n < 5 {
		p.Spec.NodeName = "node-" + strconv.Itoa(n)
	}
	p.Status.Phase = []corev1.PodPhase{corev1.PodPending, corev1.PodRunning, corev1.PodRunning, corev1.PodSucceeded, corev1.PodFailed}[rng.IntN(5)]
	if rng.IntN(6) == 0 {
		p.DeletionTimestamp = new(moment())
		p.DeletionGracePeriodSeconds = new(int64(rng.IntN(3) * 30))
	}
	if rng.IntN(5) == 0 {
		p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: corev1.PodScheduled, Status: corev1.ConditionFalse, Reason: corev1.PodReasonUnschedulable})
	}
	if rng.IntN(4) > 0 {
		ready := corev1.PodCondition{Type: corev1.PodReady, Status: corev1.ConditionFalse}
		if rng.IntN(2) == 0 {
			ready.Status = corev1.ConditionTrue
		}
		if rng.IntN(4) > 0 {
			ready.LastTransitionTime = moment()
		}
		p.Status.Conditions = append(p.Status.Conditions, ready)
	}
	for i := range 1 + rng.IntN(2) {
		cs := corev1.ContainerStatus{Name: "c" + strconv.Itoa(i), Image: "img:" + strconv.Itoa(rng.IntN(3)), RestartCount: int32(rng.IntN(4))}
		switch rng.IntN(6) {
		case 0:
			cs.State.Waiting = &corev1.ContainerStateWaiting{Reason: "ErrImagePull"}
		case 1:
			cs.State.Waiting = &corev1.ContainerStateWaiting{Reason: "ImagePullBackOff"}
		case 2:
			cs.State.Waiting = &corev1.ContainerStateWaiting{Reason: "CrashLoopBackOff"}
			cs.LastTerminationState.Terminated = &corev1.ContainerStateTerminated{ExitCode: 1}
		default:
			cs.State.Running = &corev1.ContainerStateRunning{}
			cs.Ready = rng.IntN(3) > 0
		}
		p.Status.ContainerStatuses = append(p.Status.ContainerStatuses, cs)
	}
	return p
}

// checkRecount counts every pod the picture holds from scratch and compares.
func checkRecount(t *testing.T, c *Cluster, rng *rand.Rand, when string) {
	t.Helper()
	active := map[string]int{}
	owners := map[tallyKey][]*podEntry{}
	for _, pe := range c.pods {
		if model.IsPodActive(pe.pod) && pe.pod.Spec.NodeName != "" {
			active[pe.pod.Spec.NodeName]++
		}
		if pe.facts.owner != "" {
			k := tallyKey{pe.facts.owner, pe.pod.Namespace}
			owners[k] = append(owners[k], pe)
		}
	}
	if !maps.Equal(c.activeOnNode, active) {
		t.Fatalf("%s: active pods by node kept %v, recounted %v", when, c.activeOnNode, active)
	}
	for _, row := range c.Nodes() {
		if row.Pods != active[row.Name] {
			t.Fatalf("%s: node %s shows %d pods, recounted %d", when, row.Name, row.Pods, active[row.Name])
		}
	}
	// Pod rows are read now and then, so that changes pile up between reads.
	for owner := range 4 {
		for _, ns := range []string{"shop", "ops"} {
			if rng.IntN(3) > 0 {
				continue
			}
			key := tallyKey{types.UID("rs-" + strconv.Itoa(owner)), ns}
			var want []PodRow
			for _, pe := range owners[key] {
				want = append(want, pe.row)
			}
			slices.SortFunc(want, func(a, b PodRow) int { return strings.Compare(a.Name, b.Name) })
			if got := c.podRowsOf(key.owner, ns); !slices.Equal(got, want) {
				t.Fatalf("%s: rows of %s kept %v, gathered %v", when, key, rowNames(got), rowNames(want))
			}
		}
	}
	if len(c.tallies) != len(owners) {
		t.Fatalf("%s: %d tallies kept, pods of %d owners held", when, len(c.tallies), len(owners))
	}
	for _, ns := range []string{"shop", "ops"} {
		var uids []types.UID
		for k := range owners {
			if k.namespace == ns {
				uids = append(uids, k.owner)
			}
		}
		slices.Sort(uids)
		// Each owner in turn is the new ReplicaSet, and the clock and
		// minReadySeconds vary, as the blocker reads them.
		for _, newRS := range append(uids, "") {
			minReady := int32(rng.IntN(3) * 7)
			now := tallyBase.Add(time.Duration(rng.IntN(40)) * time.Second)
			kept := podScan{newRS: newRS, minReady: time.Duration(minReady) * time.Second, now: now}
			recount := kept
			for _, uid := range uids {
				if tally := c.tallies[tallyKey{uid, ns}]; tally != nil {
					kept.addTally(tally, uid)
				}
				for _, pe := range owners[tallyKey{uid, ns}] {
					recount.add(&pe.facts)
				}
			}
			if kept != recount {
				t.Fatalf("%s: namespace %s, new ReplicaSet %q, minReadySeconds %d at %s:\nkept     %+v\nrecount  %+v",
					when, ns, newRS, minReady, now.Format(time.TimeOnly), scanSummary(kept), scanSummary(recount))
			}
		}
	}
}

func rowNames(rows []PodRow) []string {
	var out []string
	for _, r := range rows {
		out = append(out, r.Name+"@"+r.Node+"/"+r.Status)
	}
	return out
}

func scanSummary(s podScan) string {
	name := func(p *corev1.Pod) string {
		if p == nil {
			return "-"
		}
		return p.Name
	}
	return fmt.Sprintf("pull %d %s %s %s, crash %s %d, unschedulable %s, not ready %s %s, ready not available %d in %s, terminating %d grace %d",
		s.pullBad, s.pullPod, s.pullReason, s.pullImage, name(s.crash), s.crashRestarts, name(s.unschedulable),
		name(s.notReady), s.notReadyAt.Format(time.TimeOnly), s.readyNotAvailable, s.availableIn, s.terminating, s.grace)
}
