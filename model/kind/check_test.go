package kind_test

import (
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/model/kind"
)

// TestEachKindChecksWhatItsAPIRejects: every kind answers Check, naming
// the field and what to do, and a valid object passes.
func TestEachKindChecksWhatItsAPIRejects(t *testing.T) {
	labels := map[string]string{"app": "db"}
	tmpl := corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: labels},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "db", Image: "postgres:16"}}},
	}
	sel := &metav1.LabelSelector{MatchLabels: labels}
	meta := metav1.ObjectMeta{Name: "db"}
	zero := intstr.FromInt32(0)
	cases := []struct {
		name       string
		obj        any
		path, says string
	}{
		{"deployment ok", &appsv1.Deployment{ObjectMeta: meta, Spec: appsv1.DeploymentSpec{Selector: sel, Template: tmpl}}, "", ""},
		{"deployment frozen", &appsv1.Deployment{ObjectMeta: meta, Spec: appsv1.DeploymentSpec{Selector: sel, Template: tmpl,
			Strategy: appsv1.DeploymentStrategy{RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &zero, MaxUnavailable: &zero}}}},
			"spec.strategy.rollingUpdate", "could never progress"},
		{"rc without labels", &corev1.ReplicationController{ObjectMeta: meta, Spec: corev1.ReplicationControllerSpec{
			Template: &corev1.PodTemplateSpec{Spec: tmpl.Spec}}}, "spec", "neither spec.selector nor template labels"},
		{"statefulset policy", &appsv1.StatefulSet{ObjectMeta: meta, Spec: appsv1.StatefulSetSpec{Selector: sel, Template: tmpl,
			PodManagementPolicy: "Random"}}, "spec.podManagementPolicy", "use OrderedReady or Parallel"},
		{"daemonset frozen", &appsv1.DaemonSet{ObjectMeta: meta, Spec: appsv1.DaemonSetSpec{Selector: sel, Template: tmpl,
			UpdateStrategy: appsv1.DaemonSetUpdateStrategy{RollingUpdate: &appsv1.RollingUpdateDaemonSet{MaxSurge: &zero, MaxUnavailable: &zero}}}},
			"spec.updateStrategy.rollingUpdate.maxUnavailable", "one of them must allow progress"},
		{"daemonset no containers", &appsv1.DaemonSet{ObjectMeta: meta, Spec: appsv1.DaemonSetSpec{Selector: sel,
			Template: corev1.PodTemplateSpec{ObjectMeta: tmpl.ObjectMeta}}}, "spec.template.spec", "has no containers"},
	}
	for _, c := range cases {
		w, ok := kind.Of(c.obj)
		if !ok {
			t.Fatalf("%s: not a workload", c.name)
		}
		p := w.Check()
		switch {
		case c.path == "" && p != nil:
			t.Errorf("%s: refused a valid object: %s", c.name, p.Msg)
		case c.path != "" && p == nil:
			t.Errorf("%s: passed; want a problem at %s", c.name, c.path)
		case c.path != "" && (p.Path != c.path || !strings.Contains(p.Msg, c.says)):
			t.Errorf("%s: %s: %q; want %s: …%s…", c.name, p.Path, p.Msg, c.path, c.says)
		}
	}
}
