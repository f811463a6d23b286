package nodegroup

import (
	"reflect"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/runtime"
	clienttesting "k8s.io/client-go/testing"

	"rollscope/model"
)

var workers = Group{
	Name: "nodes", Role: RoleNode, Size: 3,
	Capacity: corev1.ResourceList{corev1.ResourcePods: resource.MustParse("30")},
	Spec:     "v1.36.3", InitialSpec: "v1.35.2",
	BootTime: 20 * time.Second,
	Taints:   []corev1.Taint{{Key: "dedicated", Value: "web", Effect: corev1.TaintEffectNoSchedule}},
	Labels:   map[string]string{"tier": "web"},
}

func TestGroupCreatesItsFirstNodesBootingFromTheInitialSpec(t *testing.T) {
	h := newHarness(t, []Group{workers}, nil)
	h.runFor(0)
	if got, want := h.names(), []string{"nodes-0", "nodes-1", "nodes-2"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("nodes = %v, want %v", got, want)
	}
	n := h.node("nodes-1")
	wantLabels := map[string]string{
		"kubernetes.io/hostname": "nodes-1", "kubernetes.io/os": "linux", "kubernetes.io/arch": "amd64",
		"node-role.kubernetes.io/node": "", model.NodeGroupLabel: "nodes", "tier": "web",
	}
	if !reflect.DeepEqual(n.Labels, wantLabels) {
		t.Errorf("labels = %v, want %v", n.Labels, wantLabels)
	}
	if n.Annotations[model.NodeSpecAnnotation] != "v1.35.2" {
		t.Errorf("spec annotation %q, want the initial spec", n.Annotations[model.NodeSpecAnnotation])
	}
	if n.Annotations[model.NodeSpecAnnotation] == workers.Spec {
		t.Error("a node of the initial spec is up to date")
	}
	if _, marked := n.Annotations[model.NeedsUpdateAnnotation]; !marked {
		t.Errorf("a node of the initial spec lacks %s, which kops and the console read: %v", model.NeedsUpdateAnnotation, n.Annotations)
	}
	if !hasNotReadyTaint(n) || len(n.Spec.Taints) != 2 || n.Spec.Taints[0].Key != "dedicated" {
		t.Errorf("taints = %v, want the group's taint and not-ready:NoSchedule", n.Spec.Taints)
	}
	ready := readyCondition(n)
	if ready == nil || ready.Status != corev1.ConditionFalse || ready.Reason != "KubeletNotReady" || !ready.LastHeartbeatTime.Time.Equal(t0) {
		t.Fatalf("Ready = %+v, want False KubeletNotReady since start", ready)
	}
	pods, cpu, mem := n.Status.Capacity[corev1.ResourcePods], n.Status.Capacity[corev1.ResourceCPU], n.Status.Capacity[corev1.ResourceMemory]
	if pods.String() != "30" || cpu.String() != "4" || mem.String() != "16Gi" {
		t.Errorf("capacity pods %s cpu %s memory %s, want 30 (the group's), 4 and 16Gi (defaults)", pods.String(), cpu.String(), mem.String())
	}
	if !reflect.DeepEqual(n.Status.Allocatable, n.Status.Capacity) {
		t.Errorf("allocatable %v differs from capacity %v", n.Status.Allocatable, n.Status.Capacity)
	}
	if len(n.Status.Addresses) == 0 || n.Status.Addresses[0] != (corev1.NodeAddress{Type: corev1.NodeInternalIP, Address: "10.1.0.2"}) {
		t.Errorf("addresses = %v, want InternalIP 10.1.0.2 first", n.Status.Addresses)
	}
	if v := n.Status.NodeInfo.KubeletVersion; v != "v1.35.2" {
		t.Errorf("kubeletVersion %q, want v1.35.2 from the spec", v)
	}

	h.runFor(20*time.Second - time.Millisecond)
	if c := readyCondition(h.node("nodes-0")); c.Status == corev1.ConditionTrue {
		t.Fatal("Ready before BootTime")
	}
	h.runFor(time.Millisecond)
	n = h.node("nodes-0")
	ready = readyCondition(n)
	if ready.Status != corev1.ConditionTrue || ready.Reason != "KubeletReady" || ready.Message != "kubelet is posting ready status" ||
		!ready.LastTransitionTime.Time.Equal(t0.Add(20*time.Second)) || !ready.LastHeartbeatTime.Time.Equal(t0.Add(20*time.Second)) {
		t.Fatalf("Ready = %+v, want True KubeletReady at 20s", ready)
	}
	if hasNotReadyTaint(n) {
		t.Error("the not-ready taint is still there on a Ready node")
	}
	if len(n.Spec.Taints) != 1 || n.Spec.Taints[0].Key != "dedicated" {
		t.Errorf("taints = %v, want only the group's own", n.Spec.Taints)
	}
	if len(h.Queue.Waiting()) != 0 {
		t.Errorf("a settled group leaves timers behind: %v", h.Queue.Waiting())
	}
}

func TestTerminatedNodeIsReplacedWithTheCurrentSpecAfterTheLaunchDelay(t *testing.T) {
	h := newHarness(t, []Group{workers}, nil)
	h.runFor(time.Minute)
	h.terminate("nodes-1")
	h.runFor(DefaultLaunchDelay - time.Millisecond)
	if got := h.names(); len(got) != 2 {
		t.Fatalf("nodes = %v before the launch delay, want two", got)
	}
	h.runFor(time.Millisecond)
	if got, want := h.names(), []string{"nodes-0", "nodes-2", "nodes-3"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("nodes = %v, want %v: a replacement takes the next unused index", got, want)
	}
	n := h.node("nodes-3")
	if _, marked := n.Annotations[model.NeedsUpdateAnnotation]; n.Annotations[model.NodeSpecAnnotation] != "v1.36.3" || marked {
		t.Errorf("replacement spec %q (annotations %v), want the group's current spec, not marked for update", n.Annotations[model.NodeSpecAnnotation], n.Annotations)
	}
	if n.Status.NodeInfo.KubeletVersion != "v1.36.3" {
		t.Errorf("replacement kubeletVersion %q", n.Status.NodeInfo.KubeletVersion)
	}
	h.runFor(time.Minute)
	launchedAt := time.Minute + DefaultLaunchDelay
	if h.firstSeen["nodes-3"] != launchedAt || h.readyAt["nodes-3"] != launchedAt+workers.BootTime {
		t.Errorf("replacement appeared at %v and was ready at %v, want %v and %v",
			h.firstSeen["nodes-3"], h.readyAt["nodes-3"], launchedAt, launchedAt+workers.BootTime)
	}

	// Terminating the newest node does not reuse its index either.
	h.terminate("nodes-3")
	h.terminate("nodes-0")
	h.runFor(time.Minute)
	if got, want := h.names(), []string{"nodes-2", "nodes-4", "nodes-5"}; !reflect.DeepEqual(got, want) {
		t.Errorf("nodes = %v, want %v", got, want)
	}
}

func TestAGroupsOwnLaunchDelayWins(t *testing.T) {
	g := workers
	g.LaunchDelay = 3 * time.Second
	h := newHarness(t, []Group{g}, nil)
	h.runFor(time.Minute)
	h.terminate("nodes-0")
	h.runFor(3*time.Second - time.Millisecond)
	if got := h.names(); len(got) != 2 {
		t.Fatalf("nodes = %v before the group's 3s launch delay, want two", got)
	}
	h.runFor(time.Millisecond)
	if got, want := h.names(), []string{"nodes-1", "nodes-2", "nodes-3"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("nodes = %v at the group's 3s launch delay (the controller's is %v), want %v", got, DefaultLaunchDelay, want)
	}
}

func TestDetachedNodeIsReplacedButKept(t *testing.T) {
	h := newHarness(t, []Group{workers}, nil)
	h.runFor(time.Minute)
	n := h.node("nodes-0")
	n.Annotations[model.DetachedAnnotation] = "true"
	if _, err := h.Client.CoreV1().Nodes().Update(t.Context(), n, updateOptions); err != nil {
		t.Fatal(err)
	}
	h.observe() // the detach itself must wake the group: nothing else queues it
	h.runFor(time.Minute)
	if got, want := h.names(), []string{"nodes-0", "nodes-1", "nodes-2", "nodes-3"}; !reflect.DeepEqual(got, want) {
		t.Errorf("nodes = %v, want %v: a surge node next to the detached one", got, want)
	}
}

// A real API server drops the status from a create and adds the not-ready
// taint to every new node; the controller must still bring nodes up.
func TestNodesComeUpAgainstARealAPIServer(t *testing.T) {
	g := workers
	g.BootTime = 0
	g.Taints = nil
	h := newHarness(t, []Group{g}, nil)
	h.Client.PrependReactor("create", "nodes", func(a clienttesting.Action) (bool, runtime.Object, error) {
		n := a.(clienttesting.CreateAction).GetObject().(*corev1.Node)
		n.Status = corev1.NodeStatus{}
		if !hasNotReadyTaint(n) {
			n.Spec.Taints = append(n.Spec.Taints, notReadyTaint)
		}
		return false, nil, nil
	})
	h.runFor(time.Second)
	statusUpdates := 0
	for _, a := range h.Client.Actions() {
		if a.GetVerb() == "update" && a.GetSubresource() == "status" {
			statusUpdates++
		}
	}
	if statusUpdates < 3 {
		t.Errorf("%d status updates, want the status of each of 3 nodes posted with UpdateStatus", statusUpdates)
	}
	for _, name := range h.names() {
		n := h.node(name)
		if c := readyCondition(n); c == nil || c.Status != corev1.ConditionTrue {
			t.Errorf("node %s Ready = %+v", name, c)
		}
		if hasNotReadyTaint(n) {
			t.Errorf("node %s keeps the not-ready taint the API server added", name)
		}
	}
}

func TestHeartbeatKeepsReadyNodesFresh(t *testing.T) {
	g := workers
	g.Size = 1
	h := newHarness(t, []Group{g}, func(c *Controller) { c.Heartbeat = 10 * time.Second })
	h.runFor(time.Minute)
	c := readyCondition(h.node("nodes-0"))
	if c.Status != corev1.ConditionTrue || !c.LastTransitionTime.Time.Equal(t0.Add(20*time.Second)) {
		t.Fatalf("Ready = %+v, want True since 20s", c)
	}
	if !c.LastHeartbeatTime.Time.Equal(t0.Add(time.Minute)) {
		t.Errorf("last heartbeat at %v, want 1m (every 10s since 20s)", c.LastHeartbeatTime.Sub(t0))
	}
}

func TestRolesAndBastions(t *testing.T) {
	groups := []Group{
		{Name: "control-plane-a", Role: RoleControlPlane, Size: 1, Spec: "v1.36.3"},
		{Name: "bastions", Role: RoleBastion, Size: 1},
		{Name: "nodes", Size: 1, Spec: "debian-12"},
	}
	h := newHarness(t, groups, nil)
	h.runFor(time.Minute)
	if got, want := h.names(), []string{"control-plane-a-0", "nodes-0"}; !reflect.DeepEqual(got, want) {
		t.Fatalf("nodes = %v, want %v: bastions are not Kubernetes nodes", got, want)
	}
	if _, ok := h.node("control-plane-a-0").Labels["node-role.kubernetes.io/control-plane"]; !ok {
		t.Error("control-plane node without the control-plane role label")
	}
	n := h.node("nodes-0")
	if _, ok := n.Labels["node-role.kubernetes.io/node"]; !ok {
		t.Error("a group with no role makes worker nodes")
	}
	if n.Status.NodeInfo.KubeletVersion != DefaultKubeletVersion || n.Status.NodeInfo.OSImage != "debian-12" {
		t.Errorf("nodeInfo = %+v, want the default kubelet version and the spec as OS image", n.Status.NodeInfo)
	}
	if ip := n.Status.Addresses[0].Address; ip != "10.3.0.1" {
		t.Errorf("InternalIP %s, want 10.3.0.1 (third group, first node)", ip)
	}
}

func TestGroupOf(t *testing.T) {
	node := func(group string) *corev1.Node {
		n := &corev1.Node{}
		n.Labels = map[string]string{}
		if group != "" {
			n.Labels[model.NodeGroupLabel] = group
		}
		return n
	}
	for _, group := range []string{"nodes", "gpu", ""} {
		if got := GroupOf(node(group)); got != group {
			t.Errorf("GroupOf = %q, want %q", got, group)
		}
	}
}

func TestKubeletVersionFromSpec(t *testing.T) {
	cases := map[string]string{
		"v1.36.3":            "v1.36.3",
		"1.35.0":             "v1.35.0",
		"v1.36.0-rc.1":       "v1.36.0-rc.1",
		"ubuntu-22.04":       DefaultKubeletVersion,
		"":                   DefaultKubeletVersion,
		"kope.io/k8s-1.36.3": DefaultKubeletVersion,
	}
	for spec, want := range cases {
		if got := kubeletVersion(spec); got != want {
			t.Errorf("kubeletVersion(%q) = %q, want %q", spec, got, want)
		}
	}
}
