package noderoll

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/drain"
	"rollscope/engine/kubelet"
	"rollscope/engine/live"
	"rollscope/engine/nodegroup"
	"rollscope/engine/noderoll"
	"rollscope/model"
	"rollscope/test/e2e/e2etest"
)

// patience bounds every wait on the cluster. It only bounds a failing test:
// the tests assert nothing about speed.
const patience = 2 * time.Minute

// Pods are ready about 0.7 s after they are bound and go 0.3 s after an
// eviction, so that a drain waiting on a budget waits on the 5 s retry.
// slowStop pods take 5 s to exit, keeping their node's drain under way.
var images = []kubelet.ImageRule{
	{Match: slowStop + ":*", Pull: 200 * time.Millisecond, Start: 200 * time.Millisecond, Ready: 300 * time.Millisecond, Stop: 5 * time.Second},
	{Match: "*", Pull: 200 * time.Millisecond, Start: 200 * time.Millisecond, Ready: 300 * time.Millisecond, Stop: 300 * time.Millisecond},
}

const slowStop = "e2e.example/slow-stop"

// hollowGroup is a group of nodes on spec v1 whose group asks for v2, so
// that every node starts outdated; replacements come a second after a node
// is deleted and boot in half a second.
func hollowGroup(name, role string, size, pods int) nodegroup.Group {
	return nodegroup.Group{
		Name: name, Role: role, Size: size, InitialSpec: "v1", Spec: "v2",
		BootTime: 500 * time.Millisecond, LaunchDelay: time.Second,
		Capacity: e2etest.Capacity(fmt.Sprint(pods), "8", "16Gi"),
	}
}

// cluster is the control plane the package's cases share, with every
// case's hollow node group running on it.
type cluster struct {
	*e2etest.Cluster
	groups []nodegroup.Group
}

func startCluster(t *testing.T, groups []nodegroup.Group) *cluster {
	t.Helper()
	c := e2etest.Start(t, e2etest.Setup{Patience: patience, Nodes: live.Nodes{Groups: groups, Images: images}})
	return &cluster{Cluster: c, groups: groups}
}

// roller runs rollscope's drain and roll controllers against the API
// server, as rollscope does beside the console. kill stops it the way
// killing rollscope does: whatever the controllers knew in memory is lost,
// what they wrote on the nodes stays.
type roller struct {
	kill func()
}

func startRoller(t *testing.T, client kubernetes.Interface) *roller {
	t.Helper()
	r, err := live.NewRunner(client, func(c, key string, err error) { t.Logf("%s %s: %v", c, key, err) })
	if err != nil {
		t.Fatal(err)
	}
	r.Add(drain.New(r.Env("drain-controller")))
	r.Add(noderoll.New(r.Env("node-roll-controller"), nil))
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- r.Run(ctx) }()
	ro := &roller{kill: sync.OnceFunc(func() {
		stop()
		if err := <-done; err != nil {
			t.Errorf("roll controllers: %v", err)
		}
	})}
	t.Cleanup(ro.kill)
	return ro
}

// workload is a Deployment pinned to one group's nodes, and its budget.
type workload struct {
	namespace, group  string
	replicas, minimum int32 // minimum 0: no PodDisruptionBudget
	// slow: the pods take 5 s to exit after an eviction.
	slow bool
}

// create makes the namespace, the Deployment and its budget, and waits until
// every pod is available and the disruption controller has counted them.
func (w workload) create(t *testing.T, c kubernetes.Interface) {
	t.Helper()
	ctx := t.Context()
	e2etest.Namespace(t, c, w.namespace, patience)
	t.Cleanup(func() {
		// Nothing waits for it: the namespace controller takes the pods away.
		_ = c.CoreV1().Namespaces().Delete(context.Background(), w.namespace, metav1.DeleteOptions{})
	})
	image, grace := "e2e.example/web:1", int64(1)
	if w.slow {
		image, grace = slowStop+":1", 30
	}
	d := e2etest.Deployment(w.namespace, "web", w.replicas, image)
	pod := &d.Spec.Template.Spec
	pod.NodeSelector = map[string]string{model.NodeGroupLabel: w.group}
	pod.TerminationGracePeriodSeconds = &grace
	pod.Containers[0].Name = "web"
	if _, err := c.AppsV1().Deployments(w.namespace).Create(ctx, d, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating deployment %s/web: %v", w.namespace, err)
	}
	if w.minimum > 0 {
		min := intstr.FromInt32(w.minimum)
		pdb := &policyv1.PodDisruptionBudget{
			ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: w.namespace},
			Spec:       policyv1.PodDisruptionBudgetSpec{MinAvailable: &min, Selector: &metav1.LabelSelector{MatchLabels: d.Spec.Selector.MatchLabels}},
		}
		if _, err := c.PolicyV1().PodDisruptionBudgets(w.namespace).Create(ctx, pdb, metav1.CreateOptions{}); err != nil {
			t.Fatalf("creating budget %s/web: %v", w.namespace, err)
		}
	}
	poll(t, fmt.Sprintf("%s/web available with %d pods and its budget counted", w.namespace, w.replicas), func(ctx context.Context) (bool, string, error) {
		d, err := c.AppsV1().Deployments(w.namespace).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		state := fmt.Sprintf("deployment %d/%d available", d.Status.AvailableReplicas, w.replicas)
		if d.Status.AvailableReplicas != w.replicas {
			return false, state, nil
		}
		if w.minimum == 0 {
			return true, state, nil
		}
		pdb, err := c.PolicyV1().PodDisruptionBudgets(w.namespace).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		st := pdb.Status
		state += fmt.Sprintf(", budget observed %d of %d, %d healthy, %d allowed", st.ObservedGeneration, pdb.Generation, st.CurrentHealthy, st.DisruptionsAllowed)
		return st.ObservedGeneration == pdb.Generation && st.CurrentHealthy == w.replicas && st.DisruptionsAllowed == w.replicas-w.minimum, state, nil
	})
}

// available is how many of the workload's pods are available now.
func (w workload) available(t *testing.T, c kubernetes.Interface) int32 {
	t.Helper()
	d, err := c.AppsV1().Deployments(w.namespace).Get(t.Context(), "web", metav1.GetOptions{})
	if err != nil {
		t.Fatalf("reading %s/web: %v", w.namespace, err)
	}
	return d.Status.AvailableReplicas
}

// roll requests a roll of group that deletes each drained node, so that the
// hollow group replaces it, and waits one second between nodes.
func roll(t *testing.T, c kubernetes.Interface, group string, o noderoll.Options) {
	t.Helper()
	o.DeleteNodes = true
	o.Interval = drain.Duration(time.Second)
	if err := noderoll.Request(t.Context(), c, group, o, time.Now()); err != nil {
		t.Fatalf("requesting the roll of %s: %v", group, err)
	}
}

// waitRolled waits until group has size Ready nodes, all on the group's
// current spec and none left in a roll; a failed roll fails the test at once
// with its message.
func waitRolled(t *testing.T, c kubernetes.Interface, g nodegroup.Group) {
	t.Helper()
	poll(t, fmt.Sprintf("group %s rolled to %s", g.Name, g.Spec), func(ctx context.Context) (bool, string, error) {
		nodes, err := groupNodes(ctx, c, g.Name)
		if err != nil {
			return false, "", err
		}
		var outdated, notReady, inRoll []string
		for _, n := range nodes {
			if n.Annotations[model.RollStateAnnotation] == model.RollFailed {
				t.Fatalf("the roll of %s failed: %s", g.Name, n.Annotations[model.RollMessageAnnotation])
			}
			if _, ok := n.Annotations[model.NeedsUpdateAnnotation]; ok || n.Annotations[model.NodeSpecAnnotation] != g.Spec {
				outdated = append(outdated, n.Name)
			}
			if !model.NodeReady(&n) {
				notReady = append(notReady, n.Name)
			}
			if _, ok := n.Annotations[model.RollAnnotation]; ok {
				inRoll = append(inRoll, n.Name)
			}
		}
		state := fmt.Sprintf("%d nodes, outdated %v, not ready %v, in the roll %v", len(nodes), outdated, notReady, inRoll)
		return len(nodes) == g.Size && len(outdated)+len(notReady)+len(inRoll) == 0, state, nil
	})
}

func groupNodes(ctx context.Context, c kubernetes.Interface, group string) ([]corev1.Node, error) {
	list, err := c.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: model.NodeGroupLabel + "=" + group})
	if err != nil {
		return nil, err
	}
	return list.Items, nil
}

// poll waits until check says done, failing the test with the last state it
// described. API errors are retried until patience runs out.
func poll(t *testing.T, what string, check func(ctx context.Context) (bool, string, error)) {
	t.Helper()
	e2etest.Poll(t, patience, what, check)
}
