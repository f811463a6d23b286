package ui

import (
	"bytes"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"
	"github.com/charmbracelet/colorprofile"
	uv "github.com/charmbracelet/ultraviolet"
	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/model"
	"rollscope/model/cluster"
	"rollscope/ui/draw"
	"rollscope/ui/terminal"
)

// A whole frame as the live console draws it: the real Model over a real
// cluster.Cluster, then the frame's string drawn on a terminal, by Bubble Tea
// v2's renderer (its cursedRenderer.flush: the string parsed into cells,
// diffed against the screen, the changes written) and by ui/terminal.
//
//	go test ./ui/ -run '^$' -bench Frame -benchmem

// teaRenderer is Bubble Tea v2's renderer in the alternate screen, the steps
// of cursedRenderer.flush that cost something, in their order.
type teaRenderer struct {
	scr  *uv.TerminalRenderer
	cell uv.ScreenBuffer
	out  bytes.Buffer
	last string
	// wrote is how many bytes the last frame sent to the terminal.
	wrote int
}

func newTeaRenderer(w, h int) *teaRenderer {
	t := &teaRenderer{cell: uv.NewScreenBuffer(w, h)}
	t.scr = uv.NewTerminalRenderer(&t.out, []string{"TERM=xterm-256color"})
	t.scr.SetColorProfile(colorprofile.TrueColor)
	t.scr.SetTabStops(-1)
	t.scr.SetScrollOptim(true)
	t.scr.SetFullscreen(true)
	t.scr.SetRelativeCursor(false)
	t.scr.Erase()
	return t
}

// draw is one flush: nothing when the string is the last one, as Bubble
// Tea skips an equal view.
func (t *teaRenderer) draw(content string) {
	t.wrote = 0
	if content == t.last {
		return
	}
	t.last = content
	t.cell.Clear()
	uv.NewStyledString(content).Draw(t.cell, t.cell.Bounds())
	t.scr.Render(t.cell.RenderBuffer)
	_ = t.scr.Flush()
	t.wrote = t.out.Len()
	t.out.Reset()
}

// bigRollout is a Deployment of n replicas half way from api:1.4 to
// api:1.5 on n/30 nodes: the old ReplicaSet's pods all ready, the new one's
// ready but for every seventh.
func bigRollout(n int) (objs []runtime.Object, newRS *appsv1.ReplicaSet) {
	replicas, deadline := int32(n), int32(600)
	quarter := intstr.FromString("25%")
	d := &appsv1.Deployment{}
	d.Namespace, d.Name, d.UID, d.Generation = "shop", "api", "uid-api", 2
	d.Annotations = map[string]string{model.RevisionAnnotation: "2"}
	d.Spec = appsv1.DeploymentSpec{Replicas: &replicas, ProgressDeadlineSeconds: &deadline,
		Selector: stuckRollout()[0].(*appsv1.Deployment).Spec.Selector, Template: template("api:1.5", ""),
		Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
			RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &quarter, MaxUnavailable: &quarter}}}
	half := int32(n / 2)
	d.Status = appsv1.DeploymentStatus{ObservedGeneration: 2, Replicas: replicas, UpdatedReplicas: half,
		ReadyReplicas: replicas - half/7, AvailableReplicas: replicas - half/7, Conditions: []appsv1.DeploymentCondition{
			{Type: appsv1.DeploymentAvailable, Status: corev1.ConditionTrue, Reason: "MinimumReplicasAvailable"},
			{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionTrue, Reason: "ReplicaSetUpdated"}}}
	oldRS := apiReplicaSet("6d4f8b9c7", "1", "api:1.4", "initial", half, half, t0.Add(-5*time.Hour))
	newRS = apiReplicaSet("8c7b5d6f4", "2", "api:1.5", "kubectl set image deployment/api api=api:1.5", half, half-half/7, t0.Add(-3*time.Minute))
	objs = []runtime.Object{d, oldRS, newRS}
	nodes := max(n/30, 1)
	for i := range nodes {
		objs = append(objs, readyNode("node-"+draw.Itoa(i), false))
	}
	for i := range int(half) {
		objs = append(objs, apiPod(oldRS, draw.Itoa(i), "node-"+draw.Itoa(i%nodes), nil))
		var shape func(*corev1.Pod)
		if i%7 == 0 {
			shape = notReady
		}
		objs = append(objs, apiPod(newRS, draw.Itoa(i), "node-"+draw.Itoa((i+1)%nodes), shape))
	}
	return objs, newRS
}

func notReady(p *corev1.Pod) {
	p.Status.Conditions = []corev1.PodCondition{{Type: corev1.PodReady, Status: corev1.ConditionFalse}}
	p.Status.ContainerStatuses[0].Ready = false
}

// frameModel is the console at w×h over bigRollout(n), paced as the live
// console is.
func frameModel(b *testing.B, n, w, h int) (Model, *cluster.Cluster, *appsv1.ReplicaSet) {
	b.Helper()
	objs, newRS := bigRollout(n)
	c := cluster.NewCluster()
	m := New(Options{Cluster: c, Namespace: "shop", Context: "prod-eu", Clock: fixedClock, Pace: time.Hour})
	m = send(m, tea.WindowSizeMsg{Width: w, Height: h},
		cluster.Batch{At: t0, Objects: objs, Watch: cluster.WatchStatus{Synced: true, Connected: true, Since: t0}})
	return m, c, newRS
}

// counter is a terminal that keeps only how much it was sent.
type counter struct{ n int }

func (c *counter) Write(b []byte) (int, error) { c.n += len(b); return len(b), nil }

// drawers are the two ways a frame reaches the terminal: Bubble Tea's
// renderer (what the console used before ui/terminal) and ui/terminal's
// Screen, which writes the lines that changed.
func drawers(w, h int) map[string]func() (draw func(string), wrote func() int) {
	return map[string]func() (func(string), func() int){
		"bubbletea": func() (func(string), func() int) {
			t := newTeaRenderer(w, h)
			return t.draw, func() int { return t.wrote }
		},
		"lines": func() (func(string), func() int) {
			c := &counter{}
			s := terminal.NewScreen(c, colorprofile.TrueColor, w, h)
			last := 0
			return func(f string) { last = c.n; _ = s.Draw(f, "rollscope") }, func() int { return c.n - last }
		},
	}
}

func BenchmarkFrame(b *testing.B) {
	const w, h = 200, 50
	// 30,000 pods: the live harness's largest namespace, drawn the way
	// the console draws (ui/terminal) only.
	for _, n := range []int{3000, 30000} {
		for name, newDrawer := range drawers(w, h) {
			if n > 3000 && name != "lines" {
				continue
			}
			size := draw.Itoa(n) + "pods/200x50/"
			// A refresh with nothing new: the views are read again, the
			// same frame.
			b.Run(size+"unchanged/"+name, func(b *testing.B) {
				m, _, _ := frameModel(b, n, w, h)
				draw, wrote := newDrawer()
				draw(m.View().Content)
				b.ReportAllocs()
				for b.Loop() {
					m = send(m, paceMsg{})
					draw(m.View().Content)
				}
				b.ReportMetric(float64(wrote()), "B/write")
			})
			// Pods of the new ReplicaSet turn ready and back, a batch per
			// frame: one pod (counts and one row change, the rest of the
			// screen does not), or 25 across the ReplicaSet (what a refresh
			// meets four times a second while the live harness's rollout
			// churns).
			for _, batch := range []struct {
				name string
				pods int
			}{{"one-pod", 1}, {"spread", 25}} {
				b.Run(size+batch.name+"/"+name, func(b *testing.B) {
					m, c, rs := frameModel(b, n, w, h)
					m = send(m, press("tab")) // the new ReplicaSet's pods
					var batches [2][]runtime.Object
					for i := range batch.pods {
						pod := draw.Itoa(i * (n / 2 / batch.pods))
						batches[0] = append(batches[0], apiPod(rs, pod, "node-1", nil))
						batches[1] = append(batches[1], apiPod(rs, pod, "node-1", notReady))
					}
					draw, wrote := newDrawer()
					draw(m.View().Content)
					b.ReportAllocs()
					i := 0
					for b.Loop() {
						m = send(m, cluster.Batch{At: t0, Objects: batches[i%2], Watch: c.Watch()}, paceMsg{})
						draw(m.View().Content)
						i++
					}
					b.ReportMetric(float64(wrote()), "B/write")
				})
			}
		}
	}
}
