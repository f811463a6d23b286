package memapi_test

import (
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

func TestGeneration(t *testing.T) {
	type step struct {
		change func(d *appsv1.Deployment)
		status bool // write through UpdateStatus
		want   int64
	}
	cases := []struct {
		name  string
		steps []step
	}{
		{"created at 1", nil},
		{"spec change bumps", []step{{change: func(d *appsv1.Deployment) { d.Spec.Replicas = ptr[int32](5) }, want: 2}}},
		{"template change bumps", []step{{change: func(d *appsv1.Deployment) { d.Spec.Template.Spec.Containers[0].Image = "nginx:1.26" }, want: 2}}},
		{"annotation change bumps a deployment", []step{{change: func(d *appsv1.Deployment) { d.Annotations = map[string]string{"a": "b"} }, want: 2}}},
		{"label change does not", []step{{change: func(d *appsv1.Deployment) { d.Labels = map[string]string{"a": "b"} }, want: 1}}},
		{"writing a default explicitly does not", []step{{change: func(d *appsv1.Deployment) { d.Spec.RevisionHistoryLimit = ptr[int32](10) }, want: 1}}},
		{"status writes never bump", []step{{change: func(d *appsv1.Deployment) {
			d.Status.ObservedGeneration = 1
			d.Status.Replicas = 3
			d.Spec.Replicas = ptr[int32](9) // ignored on the status subresource
		}, status: true, want: 1}}},
		{"each spec write counts", []step{
			{change: func(d *appsv1.Deployment) { d.Spec.Paused = true }, want: 2},
			{change: func(d *appsv1.Deployment) { d.Spec.Paused = false }, want: 3},
		}},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			f := newFixture(t)
			deps := f.client.AppsV1().Deployments("default")
			d := must(deps.Create(ctx, deployment("web", 3), metav1.CreateOptions{}))(t)
			if d.Generation != 1 {
				t.Fatalf("generation on create = %d, want 1", d.Generation)
			}
			for i, s := range tc.steps {
				s.change(d)
				if s.status {
					d = must(deps.UpdateStatus(ctx, d, metav1.UpdateOptions{}))(t)
				} else {
					d = must(deps.Update(ctx, d, metav1.UpdateOptions{}))(t)
				}
				if d.Generation != s.want {
					t.Fatalf("step %d: generation = %d, want %d", i, d.Generation, s.want)
				}
			}
		})
	}
}

func TestGenerationPerKind(t *testing.T) {
	f := newFixture(t)
	rs := must(f.client.AppsV1().ReplicaSets("default").Create(ctx, replicaSet("rs", 1), metav1.CreateOptions{}))(t)
	pdb := must(f.client.PolicyV1().PodDisruptionBudgets("default").Create(ctx, budget("pdb", "rs", 1), metav1.CreateOptions{}))(t)
	cm := must(f.client.CoreV1().ConfigMaps("default").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c"}}, metav1.CreateOptions{}))(t)
	if rs.Generation != 1 || pdb.Generation != 1 || cm.Generation != 0 {
		t.Fatalf("generations on create: rs %d pdb %d configmap %d; want 1 1 0", rs.Generation, pdb.Generation, cm.Generation)
	}
	rs.Annotations = map[string]string{"deployment.kubernetes.io/revision": "2"}
	rs = must(f.client.AppsV1().ReplicaSets("default").Update(ctx, rs, metav1.UpdateOptions{}))(t)
	if rs.Generation != 1 {
		t.Fatalf("a ReplicaSet annotation change bumped generation to %d; only Deployments count annotations", rs.Generation)
	}
	pdb.Spec.MinAvailable = ptr(intOrStr(2))
	pdb = must(f.client.PolicyV1().PodDisruptionBudgets("default").Update(ctx, pdb, metav1.UpdateOptions{}))(t)
	if pdb.Generation != 2 {
		t.Fatalf("PDB spec change: generation %d, want 2", pdb.Generation)
	}
}

func TestStatusAndSpecWritesStayApart(t *testing.T) {
	f := newFixture(t)
	deps := f.client.AppsV1().Deployments("default")
	d := must(deps.Create(ctx, deployment("web", 3), metav1.CreateOptions{}))(t)

	// A status write takes only the status (and, for Deployments, the
	// annotations); spec and labels stay as stored.
	d.Status.Replicas, d.Status.ObservedGeneration = 3, 1
	d.Spec.Paused = true
	d.Labels = map[string]string{"changed": "yes"}
	d.Annotations = map[string]string{"deployment.kubernetes.io/revision": "1"}
	d = must(deps.UpdateStatus(ctx, d, metav1.UpdateOptions{}))(t)
	if d.Status.Replicas != 3 || d.Spec.Paused || d.Labels["changed"] == "yes" || d.Annotations["deployment.kubernetes.io/revision"] != "1" {
		t.Fatalf("status write stored spec.paused=%v labels=%v annotations=%v status.replicas=%d",
			d.Spec.Paused, d.Labels, d.Annotations, d.Status.Replicas)
	}

	// Writing the same status again commits nothing.
	again := must(deps.UpdateStatus(ctx, d, metav1.UpdateOptions{}))(t)
	if again.ResourceVersion != d.ResourceVersion {
		t.Fatalf("an unchanged status write moved the resourceVersion from %s to %s", d.ResourceVersion, again.ResourceVersion)
	}

	// A normal update keeps the stored status whatever the request says.
	d.Status.Replicas = 99
	d.Spec.Paused = true
	d = must(deps.Update(ctx, d, metav1.UpdateOptions{}))(t)
	if d.Status.Replicas != 3 || !d.Spec.Paused {
		t.Fatalf("spec write: status.replicas=%d paused=%v; want 3 and true", d.Status.Replicas, d.Spec.Paused)
	}

	// Status set on create is dropped too.
	rs := replicaSet("rs", 2)
	rs.Status.Replicas = 2
	rs = must(f.client.AppsV1().ReplicaSets("default").Create(ctx, rs, metav1.CreateOptions{}))(t)
	if rs.Status.Replicas != 0 {
		t.Fatalf("create kept status.replicas=%d", rs.Status.Replicas)
	}

	// A ReplicaSet status write leaves its annotations alone.
	rs.Status.Replicas = 2
	rs.Annotations = map[string]string{"x": "y"}
	rs = must(f.client.AppsV1().ReplicaSets("default").UpdateStatus(ctx, rs, metav1.UpdateOptions{}))(t)
	if rs.Status.Replicas != 2 || rs.Annotations["x"] == "y" {
		t.Fatalf("ReplicaSet status write: replicas %d annotations %v", rs.Status.Replicas, rs.Annotations)
	}

	// Kinds without a status subresource refuse status writes.
	cm := must(f.client.CoreV1().ConfigMaps("default").Create(ctx, &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c"}}, metav1.CreateOptions{}))(t)
	_, err := f.client.CoreV1().ConfigMaps("default").Patch(ctx, cm.Name, "application/merge-patch+json", []byte(`{"data":{"a":"b"}}`), metav1.PatchOptions{}, "status")
	if err == nil {
		t.Fatal("status patch of a ConfigMap succeeded; ConfigMaps have no status subresource")
	}
}

func TestPodsStartPendingWithTheirQOSClass(t *testing.T) {
	f := newFixture(t)
	cases := []struct {
		name      string
		resources corev1.ResourceRequirements
		want      corev1.PodQOSClass
	}{
		{"best-effort", corev1.ResourceRequirements{}, corev1.PodQOSBestEffort},
		{"burstable", corev1.ResourceRequirements{Requests: resources("100m", "64Mi")}, corev1.PodQOSBurstable},
		{"guaranteed", corev1.ResourceRequirements{Limits: resources("1", "1Gi")}, corev1.PodQOSGuaranteed},
		{"limits-above-requests", corev1.ResourceRequirements{Requests: resources("500m", "1Gi"), Limits: resources("1", "1Gi")}, corev1.PodQOSBurstable},
	}
	for _, tc := range cases {
		p := pod(tc.name, "a")
		p.Spec.Containers[0].Resources = tc.resources
		p.Status.Phase = corev1.PodRunning // not settable on create
		got := must(f.client.CoreV1().Pods("default").Create(ctx, p, metav1.CreateOptions{}))(t)
		if got.Status.Phase != corev1.PodPending || got.Status.QOSClass != tc.want {
			t.Errorf("%s: phase %s qos %s; want Pending %s", tc.name, got.Status.Phase, got.Status.QOSClass, tc.want)
		}
	}
}

func TestPodSpecIsImmutableExceptImages(t *testing.T) {
	f := newFixture(t)
	pods := f.client.CoreV1().Pods("default")
	p := must(pods.Create(ctx, pod("p", "a"), metav1.CreateOptions{}))(t)
	p.Spec.Containers[0].Image = "nginx:1.26"
	p.Labels["extra"] = "ok"
	p = must(pods.Update(ctx, p, metav1.UpdateOptions{}))(t)
	if p.Spec.Containers[0].Image != "nginx:1.26" {
		t.Fatalf("image update not stored")
	}
	p.Spec.NodeName = "node-1"
	_, err := pods.Update(ctx, p, metav1.UpdateOptions{})
	want := "Pod \"p\" is invalid: spec: Forbidden: pod updates may not change fields other than " +
		"`spec.containers[*].image`,`spec.initContainers[*].image`,`spec.activeDeadlineSeconds`," +
		"`spec.tolerations` (only additions to existing tolerations)," +
		"`spec.terminationGracePeriodSeconds` (allow it to be set to 1 if it was previously negative)"
	if err == nil || err.Error() != want {
		t.Fatalf("setting nodeName by update: got %v\nwant %s", err, want)
	}
}

func TestFinalizersHoldDeletion(t *testing.T) {
	f := newFixture(t)
	cms := f.client.CoreV1().ConfigMaps("default")
	cm := &corev1.ConfigMap{ObjectMeta: metav1.ObjectMeta{Name: "c", Finalizers: []string{"example.com/hold"}}}
	must(cms.Create(ctx, cm, metav1.CreateOptions{}))(t)
	noErr(t, cms.Delete(ctx, "c", metav1.DeleteOptions{}))
	cm = must(cms.Get(ctx, "c", metav1.GetOptions{}))(t)
	if cm.DeletionTimestamp == nil || *cm.DeletionGracePeriodSeconds != 0 {
		t.Fatalf("a delete of an object with finalizers must only mark it: %+v", cm.ObjectMeta)
	}
	cm.Finalizers = append(cm.Finalizers, "example.com/another")
	if _, err := cms.Update(ctx, cm, metav1.UpdateOptions{}); err == nil {
		t.Fatal("added a finalizer to an object being deleted")
	}
	cm.Finalizers = nil
	must(cms.Update(ctx, cm, metav1.UpdateOptions{}))(t)
	if _, err := cms.Get(ctx, "c", metav1.GetOptions{}); err == nil {
		t.Fatal("removing the last finalizer did not complete the deletion")
	}
}

func TestDryRunWritesNothing(t *testing.T) {
	f := newFixture(t)
	dry := []string{metav1.DryRunAll}
	rv := f.cluster.ResourceVersion()
	created := must(f.client.CoreV1().Pods("default").Create(ctx, pod("p", "a"), metav1.CreateOptions{DryRun: dry}))(t)
	if created.Name != "p" || created.Spec.RestartPolicy != corev1.RestartPolicyAlways {
		t.Fatalf("dry-run create should return the defaulted object, got %+v", created.ObjectMeta)
	}
	must(f.client.CoreV1().Pods("default").Create(ctx, pod("q", "a"), metav1.CreateOptions{}))(t)
	rv++
	noErr(t, f.client.CoreV1().Pods("default").Delete(ctx, "q", metav1.DeleteOptions{DryRun: dry}))
	if f.cluster.ResourceVersion() != rv {
		t.Fatalf("dry runs committed writes: rv %d, want %d", f.cluster.ResourceVersion(), rv)
	}
	if _, err := f.client.CoreV1().Pods("default").Get(ctx, "p", metav1.GetOptions{}); err == nil {
		t.Fatal("dry-run create stored the pod")
	}
}

func TestBudgetStatusIsClearedOnCreate(t *testing.T) {
	f := newFixture(t)
	b := budget("pdb", "a", 1)
	b.Status = policyv1.PodDisruptionBudgetStatus{DisruptionsAllowed: 5}
	b = must(f.client.PolicyV1().PodDisruptionBudgets("default").Create(ctx, b, metav1.CreateOptions{}))(t)
	if b.Status.DisruptionsAllowed != 0 {
		t.Fatalf("create kept status.disruptionsAllowed=%d", b.Status.DisruptionsAllowed)
	}
}

func TestPodsGetAdmissionDefaults(t *testing.T) {
	f := newFixture(t)
	p := must(f.client.CoreV1().Pods("default").Create(ctx, pod("p", "a"), metav1.CreateOptions{}))(t)
	if p.Spec.Priority == nil || *p.Spec.Priority != 0 || p.Spec.PreemptionPolicy == nil || *p.Spec.PreemptionPolicy != corev1.PreemptLowerPriority {
		t.Fatalf("priority %v preemption %v", p.Spec.Priority, p.Spec.PreemptionPolicy)
	}
	want := []corev1.Toleration{
		{Key: corev1.TaintNodeNotReady, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr[int64](300)},
		{Key: corev1.TaintNodeUnreachable, Operator: corev1.TolerationOpExists, Effect: corev1.TaintEffectNoExecute, TolerationSeconds: ptr[int64](300)},
	}
	if len(p.Spec.Tolerations) != 2 || *p.Spec.Tolerations[0].TolerationSeconds != 300 || p.Spec.Tolerations[0].Key != want[0].Key || p.Spec.Tolerations[1].Key != want[1].Key {
		t.Fatalf("tolerations %+v", p.Spec.Tolerations)
	}

	critical := pod("c", "a")
	critical.Spec.PriorityClassName = "system-node-critical"
	critical.Spec.Tolerations = []corev1.Toleration{{Operator: corev1.TolerationOpExists}}
	critical = must(f.client.CoreV1().Pods("default").Create(ctx, critical, metav1.CreateOptions{}))(t)
	if *critical.Spec.Priority != 2000001000 || len(critical.Spec.Tolerations) != 1 {
		t.Fatalf("critical pod: priority %d tolerations %+v", *critical.Spec.Priority, critical.Spec.Tolerations)
	}

	unknown := pod("u", "a")
	unknown.Spec.PriorityClassName = "gold"
	_, err := f.client.CoreV1().Pods("default").Create(ctx, unknown, metav1.CreateOptions{})
	if want := `pods "u" is forbidden: no PriorityClass with name gold was found`; err == nil || err.Error() != want {
		t.Fatalf("unknown priority class: %v", err)
	}
}
