package cluster_test

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/model"
	"rollscope/model/cluster"
)

func TestStatusLine(t *testing.T) {
	cases := []struct {
		name string
		edit func(d *appsv1.Deployment)
		want string
	}{
		{"mid rollout, surging", func(d *appsv1.Deployment) {
			d.Status = appsv1.DeploymentStatus{ObservedGeneration: 2, Replicas: 26, UpdatedReplicas: 3, AvailableReplicas: 23}
		}, `deployment/frontend 25 desired · 26 total · 3 updated · 23 available — Waiting for deployment "frontend" rollout to finish: 3 out of 25 new replicas have been updated...`},
		{"done", func(d *appsv1.Deployment) {
			d.Status = appsv1.DeploymentStatus{ObservedGeneration: 2, Replicas: 25, UpdatedReplicas: 25, AvailableReplicas: 25}
		}, `deployment/frontend 25 desired · 25 total · 25 updated · 25 available — deployment "frontend" successfully rolled out`},
		{"paused, spec not yet observed", func(d *appsv1.Deployment) {
			d.Spec.Paused = true
			d.Generation = 3
			d.Status = appsv1.DeploymentStatus{ObservedGeneration: 2, Replicas: 25, UpdatedReplicas: 25, AvailableReplicas: 25}
		}, `deployment/frontend PAUSED 25 desired · 25 total · 25 updated · 25 available — Waiting for deployment spec update to be observed...`},
		// kubectl only compares updated replicas with a spec.replicas that
		// is set, and a deployment without one wants one.
		{"no replicas given means one", func(d *appsv1.Deployment) {
			d.Spec.Replicas = nil
		}, `deployment/frontend 1 desired · 0 total · 0 updated · 0 available — deployment "frontend" successfully rolled out`},
		{"a missed deadline is kubectl's error", func(d *appsv1.Deployment) {
			d.Status = appsv1.DeploymentStatus{ObservedGeneration: 2, Replicas: 26, UpdatedReplicas: 3, AvailableReplicas: 23,
				Conditions: []appsv1.DeploymentCondition{{Type: appsv1.DeploymentProgressing, Status: corev1.ConditionFalse, Reason: model.ReasonProgressDeadlineExceeded}}}
		}, `deployment/frontend 25 desired · 26 total · 3 updated · 23 available — deployment "frontend" exceeded its progress deadline`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d := deployment("frontend", "web:v2", 25, "2")
			tc.edit(d)
			ds := loaded(d).Deployments()
			if len(ds) != 1 {
				t.Fatalf("Deployments() = %+v, want frontend", ds)
			}
			if got := cluster.StatusLine(ds[0]); got != tc.want {
				t.Errorf("StatusLine:\n got %s\nwant %s", got, tc.want)
			}
		})
	}
}

// The console opens on the first Deployment by namespace and name when none
// was named, in its namespace or, with none, in any; a namespace without
// Deployments has none.
func TestFirstDeployment(t *testing.T) {
	var ds []runtime.Object
	for _, at := range [][2]string{{"shop", "web"}, {"billing", "ledger"}, {"shop", "api"}, {"billing", "api"}} {
		d := deployment(at[1], "web:v2", 1, "1")
		d.Namespace = at[0]
		ds = append(ds, d)
	}
	c := loaded(ds...)
	for _, tc := range []struct{ in, ns, name string }{{"", "billing", "api"}, {"shop", "shop", "api"}, {"billing", "billing", "api"}, {"empty", "", ""}} {
		ns, name, ok := c.FirstDeployment(tc.in)
		if ns != tc.ns || name != tc.name || ok != (tc.name != "") {
			t.Errorf("FirstDeployment(%q) = %s/%s %v, want %s/%s", tc.in, ns, name, ok, tc.ns, tc.name)
		}
	}
	// The answer follows Deployments as they come and go, asked again
	// and again as the console asks on every refresh.
	for _, step := range []struct {
		change     func()
		in, ns, nm string
	}{
		{func() {}, "empty", "", ""},
		{func() {
			d := deployment("zz", "web:v2", 1, "1")
			d.Namespace = "empty"
			c.Apply(cluster.Batch{At: t0, Objects: []runtime.Object{d}, Watch: synced})
		}, "empty", "empty", "zz"},
		{func() {}, "", "billing", "api"},
		{func() {
			c.Apply(cluster.Batch{At: t0, Watch: synced, Deleted: []cluster.ObjectRef{{Kind: "Deployment", Namespace: "billing", Name: "api"}}})
		}, "", "billing", "ledger"},
		{func() {
			c.Apply(cluster.Batch{At: t0, Watch: synced, Deleted: []cluster.ObjectRef{{Kind: "Deployment", Namespace: "empty", Name: "zz"}}})
		}, "empty", "", ""},
	} {
		step.change()
		ns, name, ok := c.FirstDeployment(step.in)
		if ns != step.ns || name != step.nm || ok != (step.nm != "") {
			t.Errorf("FirstDeployment(%q) = %s/%s %v, want %s/%s", step.in, ns, name, ok, step.ns, step.nm)
		}
	}
}
