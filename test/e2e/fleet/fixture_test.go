package fleet

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/model/cluster"
	"rollscope/model/kind"
	"rollscope/test/e2e/e2etest"
)

// The fleet: four teams' namespaces, ten Deployments, a StatefulSet, a
// DaemonSet and a ReplicationController. Names share no substring, so a
// screen line names one workload only.
const (
	teamA = "team-a" // the namespace the one-namespace user may read
	teamB = "team-b"
	teamC = "team-c"
	teamD = "team-d"
)

var namespaces = []string{teamA, teamB, teamC, teamD}

// workload is one workload of the fleet and the state the fixture leaves it
// in, as the API will report it.
type workload struct {
	ns, kind, name string
	want           cluster.FleetState
}

func (w workload) key() string { return w.ns + " " + w.kind + "/" + w.name }

// short is a kind as the console names it (the deploy of deploy/NAME).
func short(k kind.Kind) string {
	e, _ := k.Entry()
	return e.Short
}

// The fleet, each team's workloads as the console names them (kind/name).
var fleet = slices.Concat(
	team(teamA, "deploy/storefront", "deploy/checkout", "sts/sessions"),
	team(teamB, "deploy/ledger", "deploy/invoices", "deploy/reports"),
	team(teamC, "deploy/search", "deploy/catalog", "ds/log-agent"),
	team(teamD, "deploy/gateway", "deploy/metrics", "deploy/notifier", "rc/mailer"),
)

// notRolledOut is where buildFleet's changes leave a workload other than
// rolled out, and how; every other workload is rolled out at v1 (catalog
// twice: revision 2).
var notRolledOut = map[string]cluster.FleetState{
	// Paused, then given a new image it does not roll out.
	"checkout": cluster.FleetPaused,
	// Rolled to an image that never pulls, with a 10 s progress deadline.
	"ledger": cluster.FleetFailed,
	// Rolled one pod at a time with minReadySeconds 60: four minutes, more
	// than the package takes.
	"reports": cluster.FleetRolling,
	// Rolled to an image whose container exits after every start.
	"search": cluster.FleetCrashLooping,
}

// team is namespace ns's workloads, each named kind/name.
func team(ns string, workloads ...string) []workload {
	var out []workload
	for _, kn := range workloads {
		k, name, _ := strings.Cut(kn, "/")
		want, ok := notRolledOut[name]
		if !ok {
			want = cluster.FleetComplete
		}
		out = append(out, workload{ns: ns, kind: k, name: name, want: want})
	}
	return out
}

// fleetIn is the fleet's workloads in namespace ns ("" for all).
func fleetIn(ns string) []workload {
	var out []workload
	for _, w := range fleet {
		if ns == "" || w.ns == ns {
			out = append(out, w)
		}
	}
	return out
}

func image(name, tag string) string { return "e2e.example/" + name + ":" + tag }

// buildFleet creates every namespace and workload at v1, waits until all are
// rolled out, then sends the changes that leave each in its state, and
// waits until the API reports every state of the fleet.
func buildFleet(t *testing.T, c *testbed) {
	t.Helper()
	ctx := t.Context()
	for _, ns := range namespaces {
		e2etest.Namespace(t, c.admin, ns, patience)
	}
	for _, w := range fleet {
		var err error
		switch w.kind {
		case short(kind.Deployment):
			_, err = c.admin.AppsV1().Deployments(w.ns).Create(ctx, deployment(w), metav1.CreateOptions{})
		case short(kind.StatefulSet):
			_, err = c.admin.AppsV1().StatefulSets(w.ns).Create(ctx, statefulSet(w), metav1.CreateOptions{})
		case short(kind.DaemonSet):
			_, err = c.admin.AppsV1().DaemonSets(w.ns).Create(ctx, daemonSet(w), metav1.CreateOptions{})
		case short(kind.ReplicationController):
			_, err = c.admin.CoreV1().ReplicationControllers(w.ns).Create(ctx, replicationController(w), metav1.CreateOptions{})
		default:
			err = fmt.Errorf("no such kind %q", w.kind)
		}
		if err != nil {
			t.Fatalf("creating %s: %v", w.key(), err)
		}
	}
	c.waitStates(t, "every workload of the fleet rolled out at v1", func(w workload) cluster.FleetState { return cluster.FleetComplete })

	// kubectl set image, with the change-cause kubectl --record wrote.
	c.setImage(t, teamC, "catalog", image("catalog", "v2"), "roll catalog to v2")
	c.setImage(t, teamB, "ledger", image("ledger", "v2-missing"), "roll ledger to v2")
	c.setImage(t, teamC, "search", image("search", "v2-crash"), "roll search to v2")
	// kubectl rollout pause, then kubectl set image: a pending change.
	c.patch(t, teamA, "checkout", `{"spec":{"paused":true}}`)
	c.setImage(t, teamA, "checkout", image("checkout", "v2"), "roll checkout to v2")
	c.patch(t, teamB, "reports", fmt.Sprintf(`{"spec":{"minReadySeconds":60,"template":{"spec":{"containers":[{"name":"app","image":%q}]}}}}`, image("reports", "v2")))
	c.waitStates(t, "every workload in its state", func(w workload) cluster.FleetState { return w.want })
}

// waitStates waits until the API reports each workload of the fleet in the
// state want gives it, and nothing else in the fleet's namespaces.
func (c *testbed) waitStates(t *testing.T, what string, want func(workload) cluster.FleetState) {
	t.Helper()
	e2etest.Poll(t, patience, what, func(ctx context.Context) (bool, string, error) {
		api, err := readTruth(ctx, c.admin, namespaces)
		if err != nil {
			return false, "", err
		}
		var off []string
		for _, w := range fleet {
			if got, ok := api[w.key()]; !ok {
				off = append(off, w.key()+" missing")
			} else if got.State != want(w) {
				off = append(off, fmt.Sprintf("%s %s (want %s)", w.key(), got.State, want(w)))
			}
		}
		if len(api) != len(fleet) {
			off = append(off, fmt.Sprintf("%d workloads in the API, %d in the fleet", len(api), len(fleet)))
		}
		return len(off) == 0, strings.Join(off, "; "), nil
	})
}

func (c *testbed) patch(t *testing.T, ns, name, body string) {
	t.Helper()
	if _, err := c.admin.AppsV1().Deployments(ns).Patch(t.Context(), name, types.StrategicMergePatchType, []byte(body), metav1.PatchOptions{}); err != nil {
		t.Fatalf("patching deployment %s/%s with %s: %v", ns, name, body, err)
	}
}

// setImage is kubectl set image with the change-cause annotation.
func (c *testbed) setImage(t *testing.T, ns, name, img, cause string) {
	t.Helper()
	c.patch(t, ns, name, fmt.Sprintf(`{"metadata":{"annotations":{"kubernetes.io/change-cause":%q}},"spec":{"template":{"spec":{"containers":[{"name":"app","image":%q}]}}}}`, cause, img))
}

func template(name string) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": name}},
		Spec: corev1.PodSpec{Containers: []corev1.Container{{
			Name: "app", Image: image(name, "v1"),
			Resources: corev1.ResourceRequirements{Requests: corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("10m")}},
		}}},
	}
}

func deployment(w workload) *appsv1.Deployment {
	replicas := int32(2)
	if w.name == "reports" {
		replicas = 4
	}
	one, zero := intstr.FromInt32(1), intstr.FromInt32(0)
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: w.name, Namespace: w.ns},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": w.name}},
			Strategy: appsv1.DeploymentStrategy{
				Type:          appsv1.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &one, MaxUnavailable: &zero},
			},
			Template: template(w.name),
		},
	}
	if w.want == cluster.FleetFailed {
		deadline := int32(10)
		d.Spec.ProgressDeadlineSeconds = &deadline
	}
	return d
}

func statefulSet(w workload) *appsv1.StatefulSet {
	replicas := int32(2)
	return &appsv1.StatefulSet{
		ObjectMeta: metav1.ObjectMeta{Name: w.name, Namespace: w.ns},
		Spec: appsv1.StatefulSetSpec{
			Replicas: &replicas, ServiceName: w.name,
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": w.name}},
			Template: template(w.name),
		},
	}
}

func daemonSet(w workload) *appsv1.DaemonSet {
	return &appsv1.DaemonSet{
		ObjectMeta: metav1.ObjectMeta{Name: w.name, Namespace: w.ns},
		Spec: appsv1.DaemonSetSpec{
			Selector: &metav1.LabelSelector{MatchLabels: map[string]string{"app": w.name}},
			Template: template(w.name),
		},
	}
}

func replicationController(w workload) *corev1.ReplicationController {
	replicas := int32(2)
	tmpl := template(w.name)
	return &corev1.ReplicationController{
		ObjectMeta: metav1.ObjectMeta{Name: w.name, Namespace: w.ns},
		Spec: corev1.ReplicationControllerSpec{
			Replicas: &replicas,
			Selector: map[string]string{"app": w.name},
			Template: &tmpl,
		},
	}
}
