package live

import (
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/apimachinery/pkg/watch"

	"rollscope/engine/nodegroup"
	"rollscope/model"
)

func TestNamespaceForNamesTheScenarioInADNSLabel(t *testing.T) {
	cases := map[string]string{
		"frontend":                 "rollscope-sim-frontend-b2c4d",
		"My_Scenario.v2":           "rollscope-sim-my-scenario-v2-b2c4d",
		"--odd--name--":            "rollscope-sim-odd-name-b2c4d",
		"...":                      "rollscope-sim-scenario-b2c4d",
		strings.Repeat("long", 30): "rollscope-sim-" + strings.Repeat("long", 30)[:43] + "-b2c4d",
	}
	for scenario, want := range cases {
		got := NamespaceFor(scenario, "b2c4d")
		if got != want {
			t.Errorf("NamespaceFor(%q) = %q, want %q", scenario, got, want)
		}
		if errs := validation.IsDNS1123Label(got); len(errs) > 0 {
			t.Errorf("NamespaceFor(%q) = %q is not a namespace name: %v", scenario, got, errs)
		}
	}
}

func testNames() hollowNames {
	return newHollowNames("b2c4d", "rollscope-sim-web-b2c4d", []nodegroup.Group{{Name: "nodes", Size: 2}, {Name: "spot", Size: 1}})
}

func TestHollowGroupsAreTheRunsOwn(t *testing.T) {
	h := testNames()
	scenarioGroups := []nodegroup.Group{{Name: "nodes", Size: 2, Labels: map[string]string{"tier": "web"}}}
	groups := h.Groups(scenarioGroups)
	g := groups[0]
	if g.Name != "sim-b2c4d-nodes" || g.Size != 2 {
		t.Errorf("group %q of size %d, want sim-b2c4d-nodes of size 2", g.Name, g.Size)
	}
	if g.Labels["tier"] != "web" || g.Labels[LabelSimulation] != "rollscope-sim-web-b2c4d" {
		t.Errorf("labels %v, want the scenario's and the run's", g.Labels)
	}
	if len(g.Taints) != 1 || g.Taints[0].Key != LabelSimulation || g.Taints[0].Effect != corev1.TaintEffectNoSchedule {
		t.Errorf("taints %v, want the run's NoSchedule taint", g.Taints)
	}
	if len(scenarioGroups[0].Labels) != 1 || scenarioGroups[0].Name != "nodes" {
		t.Errorf("the scenario's group was changed: %+v", scenarioGroups[0])
	}

	for name, want := range map[string]string{"nodes-1": "sim-b2c4d-nodes-1", "spot-0": "sim-b2c4d-spot-0"} {
		if got, err := h.Node(name); err != nil || got != want {
			t.Errorf("Node(%q) = %q, %v; want %q", name, got, err, want)
		}
	}
	if _, err := h.Node("worker-0"); err == nil {
		t.Error("Node(worker-0): a node of no group of the scenario was accepted")
	}
	if got, err := h.Group("spot"); err != nil || got != "sim-b2c4d-spot" {
		t.Errorf("Group(spot) = %q, %v", got, err)
	}
	if _, err := h.Group("other"); err == nil {
		t.Error("Group(other): an unknown group was accepted")
	}
}

func TestTheTraceShowsHollowNodesUnderTheScenariosNames(t *testing.T) {
	h := testNames()
	ours := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "sim-b2c4d-nodes-0", Labels: map[string]string{
		model.NodeGroupLabel: "sim-b2c4d-nodes", LabelSimulation: "rollscope-sim-web-b2c4d"}}}
	theirs := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "worker-1"}}
	otherRun := &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: "sim-zzzzz-nodes-0", Labels: map[string]string{LabelSimulation: "rollscope-sim-web-zzzzz"}}}
	pod := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Name: "web-1", Namespace: "rollscope-sim-web-b2c4d"}, Spec: corev1.PodSpec{NodeName: "sim-b2c4d-nodes-0"}}

	ev, ok := h.forTrace(watch.Event{Type: watch.Modified, Object: ours})
	n, _ := ev.Object.(*corev1.Node)
	if !ok || n == nil || n.Name != "nodes-0" || n.Labels[model.NodeGroupLabel] != "nodes" {
		t.Errorf("the run's node is shown as %+v (shown %v), want nodes-0 of group nodes", ev.Object, ok)
	}
	if ours.Name != "sim-b2c4d-nodes-0" || ours.Labels[model.NodeGroupLabel] != "sim-b2c4d-nodes" {
		t.Errorf("the cached node was changed: %+v", ours.ObjectMeta)
	}
	for _, other := range []*corev1.Node{theirs, otherRun} {
		if _, ok := h.forTrace(watch.Event{Type: watch.Added, Object: other}); ok {
			t.Errorf("node %s, not the run's, is shown", other.Name)
		}
	}
	event := func(node string) *corev1.Event {
		return &corev1.Event{
			ObjectMeta:     metav1.ObjectMeta{Name: node + ".1", Namespace: "default"},
			InvolvedObject: corev1.ObjectReference{Kind: "Node", Name: node},
			Reason:         "TerminatedNode", Message: "Terminated node " + node + " of group sim-b2c4d-nodes",
		}
	}
	ev, ok = h.forTrace(watch.Event{Type: watch.Added, Object: event("sim-b2c4d-nodes-0")})
	if e, _ := ev.Object.(*corev1.Event); !ok || e.InvolvedObject.Name != "nodes-0" || e.Message != "Terminated node nodes-0 of group nodes" {
		t.Errorf("an event about the run's node is shown as %+v (shown %v), want it about nodes-0 of group nodes", ev.Object, ok)
	}
	if _, ok := h.forTrace(watch.Event{Type: watch.Added, Object: event("worker-1")}); ok {
		t.Error("an event about a node that is not the run's is shown")
	}

	ev, ok = h.forTrace(watch.Event{Type: watch.Modified, Object: pod})
	if p, _ := ev.Object.(*corev1.Pod); !ok || p.Spec.NodeName != "nodes-0" || pod.Spec.NodeName != "sim-b2c4d-nodes-0" {
		t.Errorf("pod shown bound to %q (cache: %q), want nodes-0", p.Spec.NodeName, pod.Spec.NodeName)
	}
}

func TestRunObjectsGoToTheRunsNamespaceAndNodes(t *testing.T) {
	replicas := int32(2)
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "shop"},
		Spec: appsv1.DeploymentSpec{Replicas: &replicas, Template: corev1.PodTemplateSpec{Spec: corev1.PodSpec{
			NodeSelector: map[string]string{"disk": "ssd"},
			Containers:   []corev1.Container{{Name: "web", Image: "web:v1"}},
		}}},
	}
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "conf", Namespace: "default"}}
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "shop"}}
	taint := testNames().taint()

	objs := runObjects([]runtime.Object{ns, d, cm}, "rollscope-sim-web-b2c4d", &taint)
	if len(objs) != 2 {
		t.Fatalf("%d objects, want the deployment and the config map (the run's namespace replaces the scenario's)", len(objs))
	}
	got := objs[0].(*appsv1.Deployment)
	if got.Namespace != "rollscope-sim-web-b2c4d" || objs[1].(*corev1.ConfigMap).Namespace != "rollscope-sim-web-b2c4d" {
		t.Errorf("namespaces %q and %q, want the run's", got.Namespace, objs[1].(*corev1.ConfigMap).Namespace)
	}
	spec := got.Spec.Template.Spec
	if spec.NodeSelector["disk"] != "ssd" || spec.NodeSelector[LabelSimulation] != "rollscope-sim-web-b2c4d" {
		t.Errorf("node selector %v, want the scenario's and the run's nodes", spec.NodeSelector)
	}
	if len(spec.Tolerations) != 1 || !tolerates(spec.Tolerations[0], taint) {
		t.Errorf("tolerations %v do not tolerate the run's taint", spec.Tolerations)
	}
	if d.Namespace != "shop" || len(d.Spec.Template.Spec.NodeSelector) != 1 || len(d.Spec.Template.Spec.Tolerations) != 0 {
		t.Errorf("the scenario's deployment was changed: %+v", d)
	}

	unpinned := runObjects([]runtime.Object{d}, "rollscope-sim-web-b2c4d", nil)[0].(*appsv1.Deployment)
	if _, ok := unpinned.Spec.Template.Spec.NodeSelector[LabelSimulation]; ok || len(unpinned.Spec.Template.Spec.Tolerations) != 0 {
		t.Errorf("without hollow nodes the pods are still pinned: %+v", unpinned.Spec.Template.Spec)
	}
}

func tolerates(tol corev1.Toleration, t corev1.Taint) bool {
	return tol.Key == t.Key && tol.Operator == corev1.TolerationOpEqual && tol.Value == t.Value && tol.Effect == t.Effect
}
