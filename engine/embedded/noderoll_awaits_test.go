package embedded_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/watch"

	"rollscope/engine/embedded"
	"rollscope/engine/noderoll"
	"rollscope/model"
	"rollscope/model/cluster"
)

// The Nodes pane's roll line says what the roll waits for between nodes:
// a node to be Ready (GroupRoll.AwaitsReady), more Ready nodes in the
// group (AwaitsNodes), a Deployment's pods (ShortDeployment), or another
// group's roll (AwaitsRoll). Held against
// what the roll then does: from every node change at which the line says
// so until it no longer holds, the group starts no drain and detaches no
// node — and it does say so, for each replacement the roll waits for while
// it boots, and while the group launches one: one node surged at a time,
// two drained at once (where a drain can still run while a replacement
// boots), and a control-plane group and a node group asked to roll at once.
func TestTheRollWaitsForWhatTheConsoleSays(t *testing.T) {
	for _, tc := range []struct {
		name   string
		src    string
		groups []string
		// awaited is how many replacements the rolls wait for: every one
		// launched before a roll's last old node is gone. A surged node's
		// is launched up front; without surge the last node's replacement
		// comes once the roll is over.
		awaited int
		// afterRoll: the node group waits for the control plane's roll;
		// deployment: a roll waits for web's evicted pods to be available
		// once its nodes are there.
		afterRoll, deployment bool
	}{
		{"surge 1, unavailable 0", groupScenario("Node", 4, 10, 8, 6, "1", "0"), []string{"pool"}, 4, false, false},
		{"no surge, unavailable 2", groupScenario("Node", 6, 10, 4, 3, "0", "2"), []string{"pool"}, 5, false, false},
		// Pods that take longer to be ready than a node to boot: after each
		// drain the roll waits for web's evicted pods.
		{"slow pods", strings.Replace(groupScenario("Node", 4, 10, 8, 6, "1", "0"), "ready: 2s", "ready: 40s", 1), []string{"pool"}, 4, false, true},
		{"the control plane first", twoGroupScenario, []string{"pool", "masters"}, 4, true, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			seen := rollAgainstTheConsole(t, tc.src, tc.groups...)
			if seen.named != tc.awaited {
				t.Errorf("the console named %d booting nodes; want each of the %d replacements the rolls waited for", seen.named, tc.awaited)
			}
			// While a drain of the pair runs the line says nothing of it,
			// so not every launch is seen short.
			if seen.short == 0 {
				t.Error("the console never said a group was short of Ready nodes while it launched a replacement")
			}
			if tc.afterRoll != (seen.afterRoll > 0) {
				t.Errorf("the console said %d times a roll waits for another group's; want it said: %v", seen.afterRoll, tc.afterRoll)
			}
			// Every wait here is a validation failing until the
			// replacement is Ready: the roll's deadline is on a node.
			if seen.deadlines == 0 {
				t.Error("no node ever said when the roll fails unless the cluster validates")
			}
			if tc.deployment != (seen.deployment > 0) {
				t.Errorf("the console said %d times a roll waits for a Deployment's pods; want it said: %v", seen.deployment, tc.deployment)
			}
		})
	}
}

// twoGroupScenario is a control-plane group and a node group, both
// outdated, with no surge for either.
const twoGroupScenario = `name: roll
seed: 3
nodeGroups:
  - {name: pool, role: Node, size: 2, capacity: {pods: 10, cpu: "64", memory: 256Gi}, initialSpec: v1, spec: v2, bootTime: 20s, maxSurge: 0, maxUnavailable: 1}
  - {name: masters, role: ControlPlane, size: 3, capacity: {pods: 10, cpu: "64", memory: 256Gi}, initialSpec: v1, spec: v2, bootTime: 20s}
`

// awaited is what the console said rolls waited for: how many nodes it
// named, and how many times it said a group was short of Ready nodes, a
// Deployment short of available pods, or a roll behind another group's;
// and at how many changes a roll's deadline was on a node.
type awaited struct{ named, short, deployment, afterRoll, deadlines int }

// rollAgainstTheConsole asks the scenario's groups to roll, in that order,
// and fails for every moment what the console said a roll waits for was
// false.
func rollAgainstTheConsole(t *testing.T, src string, groups ...string) awaited {
	r := startRollRun(t, src)
	c := r.cluster
	var seen awaited
	// said is what the console says each group's roll waits for, and
	// holds whether that still holds of the cluster now.
	said := map[string]string{}
	holds := map[string]func() bool{}
	moving := map[string]bool{} // nodes draining or detached
	var untrue []string
	observe := func(now time.Time, ev watch.Event) {
		switch ev.Object.(type) {
		case *corev1.Node, *appsv1.Deployment:
		default:
			return
		}
		l := c.Runner.Listers()
		nodes, _ := l.Nodes.List(labels.Everything())
		deps, _ := l.Deployments.List(labels.Everything())
		objs := make([]runtime.Object, 0, len(nodes)+len(deps))
		failing := map[string]string{} // a deadline of each group's roll, while its validation fails
		for _, n := range nodes {
			if at := n.Annotations[model.RollFailsAtAnnotation]; at != "" {
				failing[n.Labels[model.NodeGroupLabel]] = at
			}
		}
		for _, n := range nodes {
			objs = append(objs, n)
			if n.Annotations[model.RollNodeAnnotation] == model.RollStepDraining || model.NodeDetached(n) {
				group := n.Labels[model.NodeGroupLabel]
				if h := holds[group]; !moving[n.Name] && h != nil && h() {
					untrue = append(untrue, fmt.Sprintf("at %s %s started draining or was detached while the console said the roll of %s %s", now.Sub(epoch), n.Name, group, said[group]))
				}
				if at := failing[group]; !moving[n.Name] && at != "" {
					untrue = append(untrue, fmt.Sprintf("at %s %s started draining or was detached while the console said the roll of %s fails at %s unless the cluster validates", now.Sub(epoch), n.Name, group, at))
				}
				moving[n.Name] = true
			}
		}
		seen.deadlines += len(failing)
		for _, d := range deps {
			objs = append(objs, d)
		}
		view := cluster.NewCluster()
		view.Apply(cluster.Batch{Objects: objs})
		clear(holds)
		for _, g := range cluster.GroupRolls(view.Nodes()) {
			before := said[g.Group]
			short, isShort := g.ShortDeployment(view.Deployments())
			switch {
			case g.AwaitsRoll != "":
				said[g.Group] = "waits for the roll of group " + g.AwaitsRoll
				holds[g.Group] = func() bool { return rolling(c, g.AwaitsRoll) }
			case g.AwaitsReady != "":
				said[g.Group] = "waits for " + g.AwaitsReady + " to be Ready"
				holds[g.Group] = func() bool { return !nodeReady(c, g.AwaitsReady) }
			case g.AwaitsNodes > 0:
				said[g.Group] = fmt.Sprintf("waits for %d more Ready nodes (%d of %d)", g.AwaitsNodes, g.Ready, g.Size)
				holds[g.Group] = func() bool { return capacity(c, g.Group) < g.Size }
			case isShort:
				said[g.Group] = fmt.Sprintf("waits for deployment %s/%s to be available (%d of %d)", short.Namespace, short.Name, short.Available, short.Replicas)
				holds[g.Group] = func() bool { return unavailable(c, short.Namespace, short.Name) }
			default:
				said[g.Group] = ""
				continue
			}
			if !holds[g.Group]() {
				untrue = append(untrue, fmt.Sprintf("at %s the console said the roll of %s %s, which is not so", now.Sub(epoch), g.Group, said[g.Group]))
			}
			if said[g.Group] != before {
				switch {
				case g.AwaitsRoll != "":
					seen.afterRoll++
				case g.AwaitsReady != "":
					seen.named++
				case g.AwaitsNodes > 0:
					seen.short++
				default:
					seen.deployment++
				}
			}
		}
	}
	r.also = observe
	r.runFor(time.Minute)
	for _, g := range groups {
		r.requestRoll(g, noderoll.Options{})
	}
	r.finish()
	r.requireNoBudgetViolations()
	for _, u := range untrue {
		t.Error(u)
	}
	return seen
}

func nodeReady(c *embedded.Cluster, name string) bool {
	n, err := c.Runner.Listers().Nodes.Get(name)
	return err == nil && model.NodeReady(n)
}

// rolling reports whether a node of group carries an active roll.
func rolling(c *embedded.Cluster, group string) bool {
	nodes, _ := c.Runner.Listers().Nodes.List(labels.Everything())
	for _, n := range nodes {
		if _, in := n.Annotations[model.RollAnnotation]; in && n.Labels[model.NodeGroupLabel] == group && model.RollActive(n.Annotations[model.RollStateAnnotation]) {
			return true
		}
	}
	return false
}

// capacity is what the roll's validation counts toward group's size: its
// Ready nodes, not detached, not left drained.
func capacity(c *embedded.Cluster, group string) int {
	nodes, _ := c.Runner.Listers().Nodes.List(labels.Everything())
	n := 0
	for _, node := range nodes {
		if node.Labels[model.NodeGroupLabel] == group && model.NodeReady(node) && !model.NodeDetached(node) &&
			node.Annotations[model.RollNodeAnnotation] != model.RollStepDrained {
			n++
		}
	}
	return n
}

// unavailable reports whether the Deployment has fewer pods available than
// its spec asks for, as the roll's validation reads it.
func unavailable(c *embedded.Cluster, namespace, name string) bool {
	d, err := c.Runner.Listers().Deployments.Deployments(namespace).Get(name)
	return err == nil && d.Status.AvailableReplicas < model.DesiredReplicas(d)
}
