package kind_test

import (
	"reflect"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/model/argo"
	"rollscope/model/kind"
)

func TestOf(t *testing.T) {
	three := int32(3)
	sel := &metav1.LabelSelector{MatchLabels: map[string]string{"app": "db"}}
	tmpl := corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "db"}}}
	cases := []struct {
		obj      any
		kind     kind.Kind
		replicas int32
		scaled   bool
	}{
		{&appsv1.Deployment{ObjectMeta: metav1.ObjectMeta{Name: "db"}, Spec: appsv1.DeploymentSpec{Replicas: &three, Selector: sel, Template: tmpl}}, kind.Deployment, 3, true},
		{&corev1.ReplicationController{ObjectMeta: metav1.ObjectMeta{Name: "db"}, Spec: corev1.ReplicationControllerSpec{Selector: sel.MatchLabels, Template: &tmpl}}, kind.ReplicationController, 1, true},
		{&appsv1.StatefulSet{ObjectMeta: metav1.ObjectMeta{Name: "db"}, Spec: appsv1.StatefulSetSpec{Replicas: &three, Selector: sel, Template: tmpl}}, kind.StatefulSet, 3, true},
		{&appsv1.DaemonSet{ObjectMeta: metav1.ObjectMeta{Name: "db"}, Spec: appsv1.DaemonSetSpec{Selector: sel, Template: tmpl}}, kind.DaemonSet, 0, false},
	}
	for _, c := range cases {
		w, ok := kind.Of(c.obj)
		if !ok {
			t.Fatalf("Of(%T) is not a workload", c.obj)
		}
		if w.Kind() != c.kind || w.GetName() != "db" || w.Object() != c.obj {
			t.Errorf("Of(%T): kind %s, name %s", c.obj, w.Kind(), w.GetName())
		}
		if n, scaled := w.Replicas(); n != c.replicas || scaled != c.scaled {
			t.Errorf("%s: replicas %d, %v; want %d, %v", c.kind, n, scaled, c.replicas, c.scaled)
		}
		if w.Template().Labels["app"] != "db" || w.Selector().MatchLabels["app"] != "db" {
			t.Errorf("%s: template %v selector %v", c.kind, w.Template(), w.Selector())
		}
	}
	var nilSet *appsv1.StatefulSet
	for _, o := range []any{&corev1.Pod{}, nil, nilSet} {
		if _, ok := kind.Of(o); ok {
			t.Errorf("Of(%T) is a workload", o)
		}
	}
}

// TestCopyTakesTheStatusItsControllerWrote: a rehearsal's copy of every
// kind carries the original's status, observed at the copy's generation.
func TestCopyTakesTheStatusItsControllerWrote(t *testing.T) {
	n := int32(3)
	for _, o := range []any{
		&appsv1.Deployment{Status: appsv1.DeploymentStatus{ObservedGeneration: 7, UpdatedReplicas: n}},
		&corev1.ReplicationController{Status: corev1.ReplicationControllerStatus{ObservedGeneration: 7, Replicas: n}},
		&appsv1.StatefulSet{Status: appsv1.StatefulSetStatus{ObservedGeneration: 7, UpdatedReplicas: n}},
		&appsv1.DaemonSet{Status: appsv1.DaemonSetStatus{ObservedGeneration: 7, UpdatedNumberScheduled: n}},
	} {
		w, _ := kind.Of(o)
		cp := w.Copy(metav1.ObjectMeta{Name: "copy", Generation: 1})
		if cp.Figures() == w.Figures() {
			t.Fatalf("%s: a fresh copy already has the original's status", w.Kind())
		}
		kind.TakeStatus(cp, w)
		f, g := cp.Figures(), w.Figures()
		if [3]int64(f[1:]) != [3]int64(g[1:]) {
			t.Errorf("%s: copy's figures %v, want the original's %v", w.Kind(), f, g)
		}
		if got := reflect.ValueOf(cp.Object()).Elem().FieldByName("Status").FieldByName("ObservedGeneration").Int(); got != 1 {
			t.Errorf("%s: copy observed generation %d, want its own 1", w.Kind(), got)
		}
	}
}

// Surge is how many pods above those running a new template brings up at
// once, as each kind's controller resolves it: the memory an in-process
// cluster needs for a rollout beyond the pods it holds.
func TestSurgeIsWhatANewTemplateBringsUpAtOnce(t *testing.T) {
	ten, twentyFive := int32(10), int32(25)
	pct := func(s string) *intstr.IntOrString { v := intstr.FromString(s); return &v }
	rolling := func(surge, unavailable string) appsv1.DeploymentStrategy {
		return appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
			RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: pct(surge), MaxUnavailable: pct(unavailable)}}
	}
	daemons := func(strategy appsv1.DaemonSetUpdateStrategyType, surge string) *appsv1.DaemonSet {
		ds := &appsv1.DaemonSet{Spec: appsv1.DaemonSetSpec{UpdateStrategy: appsv1.DaemonSetUpdateStrategy{Type: strategy}},
			Status: appsv1.DaemonSetStatus{DesiredNumberScheduled: twentyFive}}
		if strategy == appsv1.RollingUpdateDaemonSetStrategyType {
			ds.Spec.UpdateStrategy.RollingUpdate = &appsv1.RollingUpdateDaemonSet{MaxSurge: pct(surge), MaxUnavailable: pct("0%")}
		}
		return ds
	}
	cases := []struct {
		name string
		obj  any
		want int32
	}{
		{"a Deployment of 10 at 25%/25%: rounded up", &appsv1.Deployment{Spec: appsv1.DeploymentSpec{Replicas: &ten, Strategy: rolling("25%", "25%")}}, 3},
		{"a Deployment of 10 at maxSurge 100%", &appsv1.Deployment{Spec: appsv1.DeploymentSpec{Replicas: &ten, Strategy: rolling("100%", "0%")}}, 10},
		{"a Deployment of 10 at maxSurge 0", &appsv1.Deployment{Spec: appsv1.DeploymentSpec{Replicas: &ten, Strategy: rolling("0%", "25%")}}, 0},
		{"a Recreate Deployment", &appsv1.Deployment{Spec: appsv1.DeploymentSpec{Replicas: &ten, Strategy: appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType}}}, 0},
		{"a StatefulSet", &appsv1.StatefulSet{Spec: appsv1.StatefulSetSpec{Replicas: &ten}}, 0},
		{"a ReplicationController", &corev1.ReplicationController{Spec: corev1.ReplicationControllerSpec{Replicas: &ten}}, 0},
		{"a DaemonSet on 25 nodes at maxSurge 10%: rounded up", daemons(appsv1.RollingUpdateDaemonSetStrategyType, "10%"), 3},
		{"an OnDelete DaemonSet", daemons(appsv1.OnDeleteDaemonSetStrategyType, ""), 0},
		{"a canary Rollout of 3 at Argo's default 25%", rolloutAt(nil), 1},
		{"a blue/green Rollout of 3: its preview set whole", rolloutAt(func(r *argo.Rollout) {
			r.Spec.Strategy = argo.RolloutStrategy{BlueGreen: &argo.BlueGreenStrategy{ActiveService: "active"}}
		}), 3},
		{"a blue/green Rollout with a preview of 1", rolloutAt(func(r *argo.Rollout) {
			r.Spec.Strategy = argo.RolloutStrategy{BlueGreen: &argo.BlueGreenStrategy{ActiveService: "active", PreviewReplicaCount: int32p(1)}}
		}), 1},
	}
	for _, c := range cases {
		w, ok := kind.Of(c.obj)
		if !ok {
			t.Fatalf("%s: not a workload", c.name)
		}
		if got := w.Surge(); got != c.want {
			t.Errorf("%s: surge %d, want %d", c.name, got, c.want)
		}
	}
}

// At resolves the surge at another size, as the controller would once the
// workload is scaled there: a percentage grows with it, a count does not,
// and a DaemonSet's is over the nodes it would run on. The workload itself
// is left as it was.
func TestSurgeAtAnotherSize(t *testing.T) {
	ten, five := int32(10), intstr.FromInt32(5)
	hundred := intstr.FromString("100%")
	deploy := func(surge intstr.IntOrString) *appsv1.Deployment {
		return &appsv1.Deployment{Spec: appsv1.DeploymentSpec{Replicas: &ten, Strategy: appsv1.DeploymentStrategy{
			Type: appsv1.RollingUpdateDeploymentStrategyType, RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &surge}}}}
	}
	ds := &appsv1.DaemonSet{Spec: appsv1.DaemonSetSpec{UpdateStrategy: appsv1.DaemonSetUpdateStrategy{
		Type: appsv1.RollingUpdateDaemonSetStrategyType, RollingUpdate: &appsv1.RollingUpdateDaemonSet{MaxSurge: &hundred}}}}
	cases := []struct {
		name     string
		obj      any
		at       int32
		was, now int32
	}{
		{"a Deployment of 10 at maxSurge 100%, scaled to 4,000", deploy(hundred), 4000, 10, 4000},
		{"a Deployment of 10 at maxSurge 5, scaled to 4,000", deploy(five), 4000, 5, 5},
		{"a DaemonSet at maxSurge 100%, on 300 nodes", ds, 300, 0, 300},
		{"a blue/green Rollout of 3, scaled to 7", rolloutAt(func(r *argo.Rollout) {
			r.Spec.Strategy = argo.RolloutStrategy{BlueGreen: &argo.BlueGreenStrategy{ActiveService: "active"}}
		}), 7, 3, 7},
	}
	for _, c := range cases {
		w, _ := kind.Of(c.obj)
		if got := w.At(c.at).Surge(); got != c.now {
			t.Errorf("%s: surge %d, want %d", c.name, got, c.now)
		}
		if got := w.Surge(); got != c.was {
			t.Errorf("%s: At changed the workload: its own surge is %d, want %d", c.name, got, c.was)
		}
	}
}
