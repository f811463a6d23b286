package scheduler

import (
	"fmt"
	"math/rand/v2"
	"testing"

	corev1 "k8s.io/api/core/v1"
)

// The ranking must choose exactly the node a walk over every node chooses,
// whatever happens to the nodes and the pods in between: random nodes
// (cordoned, NotReady, tainted, labelled, of different sizes) come, change
// and go while pods of several kinds are placed, moved and deleted, and
// after every step each kind's choice is compared with the walk's.
func TestRankingChoosesWhatTheWalkChooses(t *testing.T) {
	for seed := range uint64(20) {
		rng := rand.New(rand.NewPCG(seed, 7))
		c := newNodeCache()
		kinds := []*corev1.Pod{
			pod("small", "100m", "128Mi"),
			pod("big", "2", "4Gi"),
			pod("none", "", ""),
			pod("tolerant", "500m", "1Gi", tolerating(corev1.Toleration{Key: "dedicated", Operator: corev1.TolerationOpExists})),
			pod("picky", "100m", "128Mi", func(p *corev1.Pod) { p.Spec.NodeSelector = map[string]string{"zone": "a"} }),
		}
		randomNode := func(name string) *corev1.Node {
			var opts []nodeOpt
			switch rng.IntN(8) {
			case 0:
				opts = append(opts, cordoned)
			case 1:
				opts = append(opts, notReady)
			case 2:
				opts = append(opts, tainted("dedicated", "x", corev1.TaintEffectNoSchedule))
			case 3:
				opts = append(opts, tainted("soft", "", corev1.TaintEffectPreferNoSchedule))
			}
			n := node(name, []string{"2", "4", "8"}[rng.IntN(3)], []string{"4Gi", "16Gi"}[rng.IntN(2)], 3+rng.IntN(6), opts...)
			if rng.IntN(2) == 0 {
				n.Labels["zone"] = "a"
			}
			return n
		}
		names := func() string { return fmt.Sprintf("node-%02d", rng.IntN(30)) }
		var placed []podName
		for step := range 600 {
			switch op := rng.IntN(10); {
			case op < 2:
				c.setNode(randomNode(names()))
			case op < 3:
				c.removeNode(names())
			case op < 5 && len(placed) > 0:
				i := rng.IntN(len(placed))
				c.forgetPod(placed[i], "")
				placed = append(placed[:i], placed[i+1:]...)
			default:
				k := kinds[rng.IntN(len(kinds))]
				d := newDemand(k)
				if name, _ := c.pick(d); name != "" {
					key := podName{"default", fmt.Sprintf("%s-%d", k.Name, step)}
					c.assume(key, k, name, d.requests)
					placed = append(placed, key)
				}
			}
			for _, k := range kinds {
				d := newDemand(k)
				got, _ := c.pick(d)
				want, _ := c.walk(d)
				if got != want {
					t.Fatalf("seed %d step %d, pod %s: ranking chose %q, a walk over every node %q", seed, step, k.Name, got, want)
				}
			}
		}
	}
}

// A pod that fits nowhere still hears why from every node, as
// kube-scheduler's FitError says it.
func TestNoRoomStillNamesEveryReason(t *testing.T) {
	c := newNodeCache()
	c.setNode(node("a", "1", "1Gi", 10))
	c.setNode(node("b", "1", "1Gi", 10, cordoned))
	name, reasons := c.pick(newDemand(pod("p", "2", "128Mi")))
	if name != "" || reasons[reasonCPU] != 1 || reasons[reasonUnschedulable] != 1 {
		t.Fatalf("pick = %q, %v; want no node, 1 %s and 1 %s", name, reasons, reasonCPU, reasonUnschedulable)
	}
}

// Pods that differ in what the filters read get different signatures: the
// quoting keeps a toleration's or selector's parts apart however they are
// spelled, as fmt's %q did.
func TestSignatureTellsKindsApart(t *testing.T) {
	tol := func(key, value string) func(*corev1.Pod) {
		return func(p *corev1.Pod) {
			p.Spec.Tolerations = append(p.Spec.Tolerations, corev1.Toleration{Key: key, Operator: corev1.TolerationOpEqual, Value: value, Effect: corev1.TaintEffectNoSchedule})
		}
	}
	sel := func(k, v string) func(*corev1.Pod) {
		return func(p *corev1.Pod) { p.Spec.NodeSelector = map[string]string{k: v} }
	}
	pods := []*corev1.Pod{
		pod("a", "100m", "128Mi"),
		pod("b", "100m", "128Mi", tol("a", "b c")),
		pod("c", "100m", "128Mi", tol("a b", "c")),
		pod("d", "100m", "128Mi", tol("a", "b"), tol("c", "")),
		pod("e", "100m", "128Mi", tol("a", "b\" \"c")),
		pod("f", "100m", "128Mi", sel("zone", "a")),
		pod("g", "100m", "128Mi", sel("zone", "a b")),
		pod("h", "100m", "128Mi", sel("zone a", "b")),
		pod("i", "200m", "128Mi", sel("zone", "a")),
	}
	seen := map[string]string{}
	for _, p := range pods {
		sig := signature(p, podRequests(p))
		if other, ok := seen[sig]; ok {
			t.Errorf("pods %s and %s ask for different nodes but share the signature %q", other, p.Name, sig)
		}
		seen[sig] = p.Name
		again := p.DeepCopy()
		again.Name = "copy"
		if s := signature(again, podRequests(again)); s != sig {
			t.Errorf("two pods like %s have signatures %q and %q", p.Name, sig, s)
		}
	}
	want := `100/134217728/1|t "a" "Equal" "b c" "NoSchedule"`
	if got := signature(pods[1], podRequests(pods[1])); got != want {
		t.Errorf("signature = %s, want %s (what \"|t %%q %%q %%q %%q\" wrote)", got, want)
	}
}
