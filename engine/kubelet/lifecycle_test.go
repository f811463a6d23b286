package kubelet

import (
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
)

var webRule = ImageRule{Match: "web:*", Pull: 2 * time.Second, Start: 3 * time.Second, Ready: 4 * time.Second}

func TestPodGoesPendingRunningReadyAtTheRuleTimes(t *testing.T) {
	h := newHarness(t, 1, []ImageRule{webRule}, Options{})
	h.addNode("n1", true)
	h.addPod("web-1", "n1", "web:v1")

	h.runFor(0)
	p := h.mustPod("web-1")
	if p.Status.Phase != corev1.PodPending || p.Status.StartTime == nil || !p.Status.StartTime.Time.Equal(t0) {
		t.Fatalf("first sight: phase %q startTime %v, want Pending at %v", p.Status.Phase, p.Status.StartTime, t0)
	}
	if p.Status.HostIP != "10.0.0.7" || p.Status.PodIP == "" || len(p.Status.PodIPs) != 1 {
		t.Errorf("first sight: hostIP %q podIP %q podIPs %v, want the node's InternalIP and a pod IP", p.Status.HostIP, p.Status.PodIP, p.Status.PodIPs)
	}
	wantConds := []struct {
		t      corev1.PodConditionType
		status corev1.ConditionStatus
		reason string
	}{
		{corev1.PodReadyToStartContainers, corev1.ConditionTrue, ""},
		{corev1.PodInitialized, corev1.ConditionTrue, ""},
		{corev1.PodReady, corev1.ConditionFalse, "ContainersNotReady"},
		{corev1.ContainersReady, corev1.ConditionFalse, "ContainersNotReady"},
		{corev1.PodScheduled, corev1.ConditionTrue, ""},
	}
	if len(p.Status.Conditions) != len(wantConds) {
		t.Fatalf("conditions = %+v, want %d of them", p.Status.Conditions, len(wantConds))
	}
	for i, w := range wantConds {
		c := p.Status.Conditions[i]
		if c.Type != w.t || c.Status != w.status || c.Reason != w.reason {
			t.Errorf("condition %d = %s %s %q, want %s %s %q", i, c.Type, c.Status, c.Reason, w.t, w.status, w.reason)
		}
	}
	if msg := podCondition(p, corev1.PodReady).Message; msg != "containers with unready status: [a]" {
		t.Errorf("Ready message = %q", msg)
	}
	cs := p.Status.ContainerStatuses
	if len(cs) != 1 || cs[0].State.Waiting == nil || cs[0].State.Waiting.Reason != "ContainerCreating" ||
		cs[0].Image != "web:v1" || cs[0].Name != "a" || cs[0].Ready || cs[0].RestartCount != 0 {
		t.Fatalf("container status at first sight = %+v", cs)
	}

	h.runFor(5*time.Second - time.Millisecond)
	if p := h.mustPod("web-1"); p.Status.Phase != corev1.PodPending {
		t.Fatalf("just before pull+start: phase %q, want Pending", p.Status.Phase)
	}
	h.runFor(time.Millisecond)
	p = h.mustPod("web-1")
	run := p.Status.ContainerStatuses[0]
	if p.Status.Phase != corev1.PodRunning || run.State.Running == nil || !run.State.Running.StartedAt.Time.Equal(t0.Add(5*time.Second)) || run.Ready {
		t.Fatalf("at pull+start: phase %q state %+v ready %v, want Running since 5s and not ready", p.Status.Phase, run.State, run.Ready)
	}
	if run.ContainerID == "" || run.ImageID == "" || run.Started == nil || !*run.Started {
		t.Errorf("a running container has a container ID, an image ID and started=true: %+v", run)
	}

	h.runFor(4*time.Second - time.Millisecond)
	if isReady(&h.mustPod("web-1").Status) {
		t.Fatal("ready before the rule's Ready delay")
	}
	h.runFor(time.Millisecond)
	p = h.mustPod("web-1")
	ready := podCondition(p, corev1.PodReady)
	if ready.Status != corev1.ConditionTrue || !ready.LastTransitionTime.Time.Equal(t0.Add(9*time.Second)) {
		t.Fatalf("Ready = %+v, want True since 9s", ready)
	}
	if c := podCondition(p, corev1.ContainersReady); c.Status != corev1.ConditionTrue {
		t.Errorf("ContainersReady = %s, want True", c.Status)
	}
	if !p.Status.ContainerStatuses[0].Ready {
		t.Error("container not ready")
	}
	if len(h.Events.Lines) != 0 {
		t.Errorf("a healthy pod records no events, got %q", h.Events.Lines)
	}
	if len(h.Queue.Waiting()) != 0 {
		t.Errorf("a ready pod leaves nothing scheduled, got %v", h.Queue.Waiting())
	}
}

func TestUnmatchedImagesStartInOneSecondAndAreReadyOneSecondLater(t *testing.T) {
	h := newHarness(t, 1, nil, Options{})
	h.addNode("n1", true)
	h.addPod("p", "n1", "busybox")
	h.runFor(time.Minute)
	if got := h.firstTime("p", func(s *corev1.PodStatus) bool { return s.Phase == corev1.PodRunning }); got != time.Second {
		t.Errorf("running after %v, want 1s", got)
	}
	if got := h.firstTime("p", isReady); got != 2*time.Second {
		t.Errorf("ready after %v, want 2s", got)
	}
}

func TestPodIsReadyOnlyWhenEveryContainerIs(t *testing.T) {
	rules := []ImageRule{
		{Match: "fast:*", Start: time.Second, Ready: time.Second},
		{Match: "slow:*", Start: time.Second, Ready: 10 * time.Second},
	}
	h := newHarness(t, 1, rules, Options{})
	h.addNode("n1", true)
	h.addPod("p", "n1", "fast:1", "slow:1")
	h.runFor(0)
	if msg := podCondition(h.mustPod("p"), corev1.PodReady).Message; msg != "containers with unready status: [a b]" {
		t.Errorf("Ready message = %q", msg)
	}
	h.runFor(5 * time.Second)
	p := h.mustPod("p")
	if !p.Status.ContainerStatuses[0].Ready || p.Status.ContainerStatuses[1].Ready {
		t.Fatalf("at 5s: container ready = %v/%v, want true/false", p.Status.ContainerStatuses[0].Ready, p.Status.ContainerStatuses[1].Ready)
	}
	if c := podCondition(p, corev1.PodReady); c.Status != corev1.ConditionFalse || c.Message != "containers with unready status: [b]" {
		t.Errorf("at 5s: Ready = %s %q, want False naming b", c.Status, c.Message)
	}
	h.runFor(time.Minute)
	if got := h.firstTime("p", isReady); got != 11*time.Second {
		t.Errorf("pod ready after %v, want 11s (the slow container)", got)
	}
}

func TestReadyJitterIsReproducibleForASeed(t *testing.T) {
	rules := []ImageRule{{Match: "*", Start: time.Second, Ready: time.Second, Jitter: 10 * time.Second}}
	readyTimes := func(seed int64) []time.Duration {
		h := newHarness(t, seed, rules, Options{})
		h.addNode("n1", true)
		names := []string{"p0", "p1", "p2", "p3", "p4", "p5"}
		for _, n := range names {
			h.addPod(n, "n1", "img")
		}
		h.runFor(time.Minute)
		var out []time.Duration
		for _, n := range names {
			out = append(out, h.firstTime(n, isReady))
		}
		return out
	}
	a, b, c := readyTimes(7), readyTimes(7), readyTimes(8)
	distinct := map[time.Duration]bool{}
	for i := range a {
		if a[i] != b[i] {
			t.Errorf("pod %d: ready at %v and %v with the same seed", i, a[i], b[i])
		}
		if a[i] < 2*time.Second || a[i] >= 12*time.Second {
			t.Errorf("pod %d ready at %v, want within [2s, 12s)", i, a[i])
		}
		distinct[a[i]] = true
	}
	if len(distinct) < 2 {
		t.Errorf("jitter gave every pod the same ready time %v", a)
	}
	same := true
	for i := range a {
		same = same && a[i] == c[i]
	}
	if same {
		t.Errorf("seeds 7 and 8 gave the same ready times %v", a)
	}
}

func TestPodsOfANodeThatIsNotReadyWaitForIt(t *testing.T) {
	h := newHarness(t, 1, []ImageRule{webRule}, Options{})
	h.addNode("n1", false)
	h.addPod("p", "n1", "web:1")
	h.runFor(time.Minute)
	if p := h.mustPod("p"); p.Status.StartTime != nil {
		t.Fatalf("a pod on a NotReady node got a status: %+v", p.Status)
	}
	h.setNodeReady("n1", true)
	h.runFor(time.Minute)
	if got := h.firstTime("p", isReady); got != time.Minute+9*time.Second {
		t.Errorf("ready at %v, want 1m9s: the rule's 9s counted from when the node became Ready", got)
	}
	h.deletePod("p", 30)
	h.setNodeReady("n1", false)
	h.runFor(time.Minute)
	if h.pod("p") == nil {
		t.Error("a pod on a NotReady node was removed: its kubelet is not running")
	}
	h.setNodeReady("n1", true)
	h.runFor(2 * time.Second)
	if h.pod("p") != nil {
		t.Error("the pod was not removed once its node was Ready again")
	}
}

func TestKubeletServesOnlyItsNodes(t *testing.T) {
	h := newHarness(t, 1, nil, Options{Serves: func(n string) bool { return n == "mine" }})
	h.addNode("mine", true)
	h.addNode("theirs", true)
	h.addPod("a", "mine", "img")
	h.addPod("b", "theirs", "img")
	h.addPod("unbound", "", "img")
	h.runFor(time.Minute)
	if !isReady(&h.mustPod("a").Status) {
		t.Error("the pod on the served node is not ready")
	}
	for _, n := range []string{"b", "unbound"} {
		if p := h.mustPod(n); p.Status.StartTime != nil {
			t.Errorf("pod %s was touched by a kubelet that does not serve its node", n)
		}
	}
}

func TestReadinessGatesHoldTheReadyCondition(t *testing.T) {
	h := newHarness(t, 1, nil, Options{})
	h.addNode("n1", true)
	p := h.addPod("p", "n1", "img")
	p = h.mustPod(p.Name)
	p.Spec.ReadinessGates = []corev1.PodReadinessGate{{ConditionType: "example.com/lb"}}
	if _, err := h.Client.CoreV1().Pods("default").Update(t.Context(), p, metav1UpdateOptions); err != nil {
		t.Fatal(err)
	}
	h.observe()
	h.runFor(time.Minute)
	p = h.mustPod("p")
	ready := podCondition(p, corev1.PodReady)
	if ready.Status != corev1.ConditionFalse || !strings.Contains(ready.Message, `"example.com/lb" does not exist`) {
		t.Fatalf("Ready = %s %q, want False waiting for the gate", ready.Status, ready.Message)
	}
	if podCondition(p, corev1.ContainersReady).Status != corev1.ConditionTrue {
		t.Error("ContainersReady should be True: every container is ready")
	}
	p.Status.Conditions = append(p.Status.Conditions, corev1.PodCondition{Type: "example.com/lb", Status: corev1.ConditionTrue})
	if _, err := h.Client.CoreV1().Pods("default").UpdateStatus(t.Context(), p, metav1UpdateOptions); err != nil {
		t.Fatal(err)
	}
	h.observe()
	h.runFor(time.Second)
	if !isReady(&h.mustPod("p").Status) {
		t.Error("the pod is not ready once its readiness gate is True")
	}
}

// With RoutineEvents a started container has a real kubelet's four Normal
// events, recorded as it starts; without, the kubelet records none.
func TestRoutineEventsAsARealKubeletRecordsThem(t *testing.T) {
	for _, routine := range []bool{true, false} {
		h := newHarness(t, 1, []ImageRule{webRule}, Options{RoutineEvents: routine})
		h.addNode("n1", true)
		h.addPod("web-1", "n1", "web:v1")
		h.runFor(5*time.Second - time.Millisecond)
		if len(h.Events.Lines) != 0 {
			t.Fatalf("routine %v: events before the container started: %q", routine, h.Events.Lines)
		}
		h.runFor(time.Minute)
		want := []string{`Normal Pulling Pulling image "web:v1"`, `Normal Pulled Successfully pulled image "web:v1"`,
			"Normal Created Created container: a", "Normal Started Started container a"}
		if !routine {
			want = nil
		}
		if got := strings.Join(h.Events.Lines, "\n"); got != strings.Join(want, "\n") {
			t.Errorf("routine %v: events\n%s\nwant\n%s", routine, got, strings.Join(want, "\n"))
		}
	}
}
