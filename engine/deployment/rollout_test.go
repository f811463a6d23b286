package deployment

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"
	k8stesting "k8s.io/client-go/testing"

	"rollscope/engine/control/controltest"
	"rollscope/model"
)

const webKey = "default/web"

// webDeployment is a realistic deployment "web" running image.
func webDeployment(replicas int32, image string, strategy appsv1.DeploymentStrategyType) *appsv1.Deployment {
	labels := map[string]string{"app": "web"}
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: metav1.NamespaceDefault, UID: "uid-web"},
		Spec: appsv1.DeploymentSpec{
			Replicas: &replicas,
			Selector: &metav1.LabelSelector{MatchLabels: labels},
			Template: corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: image}}},
			},
			Strategy:                appsv1.DeploymentStrategy{Type: strategy},
			RevisionHistoryLimit:    ref(int32(10)),
			ProgressDeadlineSeconds: ref(int32(600)),
		},
	}
	if strategy == appsv1.RollingUpdateDeploymentStrategyType {
		surge, unavailable := intstr.FromInt32(3), intstr.FromInt32(2)
		d.Spec.Strategy.RollingUpdate = &appsv1.RollingUpdateDeployment{MaxSurge: &surge, MaxUnavailable: &unavailable}
	}
	return d
}

// settle plays the ReplicaSet controller: every ReplicaSet runs, readies and
// makes available exactly its spec.replicas.
func (f *fixture) settle() {
	f.T.Helper()
	for _, rs := range f.replicaSets() {
		n := model.SpecReplicas(rs)
		rs.Status = appsv1.ReplicaSetStatus{Replicas: n, ReadyReplicas: n, AvailableReplicas: n, ObservedGeneration: rs.Generation}
		if _, err := f.Client.AppsV1().ReplicaSets(rs.Namespace).UpdateStatus(context.Background(), rs, metav1.UpdateOptions{}); err != nil {
			f.T.Fatal(err)
		}
	}
	f.refreshCaches()
}

// edit changes the deployment through the API and lets the caches see it.
func (f *fixture) edit(change func(d *appsv1.Deployment)) {
	f.T.Helper()
	d := f.deployment("web")
	change(d)
	if _, err := f.Client.AppsV1().Deployments(d.Namespace).Update(context.Background(), d, metav1.UpdateOptions{}); err != nil {
		f.T.Fatal(err)
	}
	f.refreshCaches()
}

// syncAndSee runs one sync and refreshes the caches with what it wrote.
func (f *fixture) syncAndSee() {
	f.T.Helper()
	f.sync(webKey)
	f.refreshCaches()
}

func (f *fixture) byImage(image string) *appsv1.ReplicaSet {
	f.T.Helper()
	for _, rs := range f.replicaSets() {
		if rs.Spec.Template.Spec.Containers[0].Image == image {
			return rs
		}
	}
	f.T.Fatalf("no replica set runs %s; have %v", image, f.replicaSets())
	return nil
}

// rolledOut starts web at image v1 with 10 replicas, fully available.
func rolledOut(t testing.TB, strategy appsv1.DeploymentStrategyType) *fixture {
	f := newFixture(t, webDeployment(10, "web:v1", strategy))
	f.syncAndSee()
	f.settle()
	f.syncAndSee()
	return f
}

func TestFirstSyncCreatesTheFirstReplicaSet(t *testing.T) {
	f := newFixture(t, webDeployment(10, "web:v1", appsv1.RollingUpdateDeploymentStrategyType))
	f.syncAndSee()

	rss := f.replicaSets()
	if len(rss) != 1 {
		t.Fatalf("want one ReplicaSet, have %d", len(rss))
	}
	rs := rss[0]
	d := f.deployment("web")
	hash := model.PodTemplateHash(&d.Spec.Template, nil)
	if rs.Name != "web-"+hash || rs.Labels[model.PodTemplateHashLabel] != hash ||
		rs.Spec.Selector.MatchLabels[model.PodTemplateHashLabel] != hash || rs.Spec.Template.Labels[model.PodTemplateHashLabel] != hash {
		t.Errorf("ReplicaSet %s not named and labelled by the template hash %s: labels %v", rs.Name, hash, rs.Labels)
	}
	if ref := metav1.GetControllerOf(rs); ref == nil || ref.UID != d.UID || ref.Kind != "Deployment" {
		t.Errorf("ReplicaSet not controlled by the deployment: %v", rs.OwnerReferences)
	}
	if *rs.Spec.Replicas != 10 || rs.Annotations[model.RevisionAnnotation] != "1" ||
		rs.Annotations[model.DesiredReplicasAnnotation] != "10" || rs.Annotations[model.MaxReplicasAnnotation] != "13" {
		t.Errorf("new ReplicaSet: replicas %d, annotations %v", *rs.Spec.Replicas, rs.Annotations)
	}
	if d.Annotations[model.RevisionAnnotation] != "1" {
		t.Errorf("deployment revision %q, want 1", d.Annotations[model.RevisionAnnotation])
	}
	if c := model.GetDeploymentCondition(d.Status, appsv1.DeploymentProgressing); c == nil || c.Reason != model.ReasonNewReplicaSetCreated ||
		c.Message != fmt.Sprintf("Created new replica set %q", rs.Name) {
		t.Errorf("Progressing = %+v, want NewReplicaSetCreated", c)
	}
	if ev := f.Events.Lines; !slices.Equal(ev, []string{"Normal ScalingReplicaSet Scaled up replica set " + rs.Name + " from 0 to 10"}) {
		t.Errorf("events = %q", ev)
	}
}

func TestRollingUpdateStaysWithinSurgeAndUnavailability(t *testing.T) {
	f := rolledOut(t, appsv1.RollingUpdateDeploymentStrategyType)
	if c := model.GetDeploymentCondition(f.deployment("web").Status, appsv1.DeploymentProgressing); c == nil || c.Reason != model.ReasonNewReplicaSetAvailable {
		t.Fatalf("v1 rollout not complete: %+v", c)
	}
	oldName := f.byImage("web:v1").Name
	f.Events.Lines = nil

	f.edit(func(d *appsv1.Deployment) { d.Spec.Template.Spec.Containers[0].Image = "web:v2" })
	// Upstream's worked example: new created with 3, old scaled to 8, new to 5.
	f.syncAndSee()
	if n, o := *f.byImage("web:v2").Spec.Replicas, *f.byImage("web:v1").Spec.Replicas; n != 3 || o != 8 {
		t.Fatalf("after first sync: new %d old %d, want 3 and 8", n, o)
	}
	newName := f.byImage("web:v2").Name
	f.syncAndSee()
	if n := *f.byImage("web:v2").Spec.Replicas; n != 5 {
		t.Fatalf("after second sync: new %d, want 5", n)
	}
	// Nothing new is available yet: the old ReplicaSet may not shrink further.
	f.syncAndSee()
	if o := *f.byImage("web:v1").Spec.Replicas; o != 8 {
		t.Fatalf("old scaled to %d with no new pod available, want 8", o)
	}

	for i := 0; i < 20; i++ {
		f.settle()
		before := len(f.writes())
		f.syncAndSee()
		var total, available int32
		for _, rs := range f.replicaSets() {
			total += *rs.Spec.Replicas
			available += min(*rs.Spec.Replicas, rs.Status.AvailableReplicas)
		}
		if total > 13 {
			t.Fatalf("step %d: %d replicas asked for, more than replicas+maxSurge 13", i, total)
		}
		if available < 8 {
			t.Fatalf("step %d: only %d available, fewer than replicas-maxUnavailable 8", i, available)
		}
		if len(f.writes()) == before {
			break
		}
	}
	if n, o := *f.byImage("web:v2").Spec.Replicas, *f.byImage("web:v1").Spec.Replicas; n != 10 || o != 0 {
		t.Fatalf("rollout did not finish: new %d old %d", n, o)
	}
	d := f.deployment("web")
	if d.Annotations[model.RevisionAnnotation] != "2" || f.byImage("web:v2").Annotations[model.RevisionAnnotation] != "2" {
		t.Errorf("revisions: deployment %q, new ReplicaSet %q; want 2", d.Annotations[model.RevisionAnnotation], f.byImage("web:v2").Annotations[model.RevisionAnnotation])
	}
	if msg, done, err := model.RolloutStatus(d, 0); !done || err != nil {
		t.Errorf("kubectl rollout status: %q, %v, %v", msg, done, err)
	}
	if c := model.GetDeploymentCondition(d.Status, appsv1.DeploymentProgressing); c == nil || c.Reason != model.ReasonNewReplicaSetAvailable ||
		c.Message != fmt.Sprintf("ReplicaSet %q has successfully progressed.", newName) {
		t.Errorf("Progressing = %+v", c)
	}
	wantEvents := []string{
		"Normal ScalingReplicaSet Scaled up replica set " + newName + " from 0 to 3",
		"Normal ScalingReplicaSet Scaled down replica set " + oldName + " from 10 to 8",
		"Normal ScalingReplicaSet Scaled up replica set " + newName + " from 3 to 5",
		"Normal ScalingReplicaSet Scaled down replica set " + oldName + " from 8 to 3",
		"Normal ScalingReplicaSet Scaled up replica set " + newName + " from 5 to 10",
		"Normal ScalingReplicaSet Scaled down replica set " + oldName + " from 3 to 0",
	}
	if ev := f.Events.Lines; !slices.Equal(ev, wantEvents) {
		t.Errorf("events =\n%s\nwant\n%s", strings.Join(ev, "\n"), strings.Join(wantEvents, "\n"))
	}
}

func TestPausedDeploymentCreatesNoReplicaSet(t *testing.T) {
	f := rolledOut(t, appsv1.RollingUpdateDeploymentStrategyType)
	f.edit(func(d *appsv1.Deployment) {
		d.Spec.Paused = true
		d.Spec.Template.Spec.Containers[0].Image = "web:v2"
	})
	f.Client.ClearActions()
	f.Events.Lines = nil
	f.syncAndSee()

	for _, a := range f.writes() {
		if a.GetVerb() == "create" {
			t.Errorf("paused deployment created %v", a)
		}
	}
	if len(f.replicaSets()) != 1 {
		t.Errorf("paused deployment has %d ReplicaSets, want 1", len(f.replicaSets()))
	}
	c := model.GetDeploymentCondition(f.deployment("web").Status, appsv1.DeploymentProgressing)
	if c == nil || c.Status != corev1.ConditionUnknown || c.Reason != model.ReasonDeploymentPaused || c.Message != "Deployment is paused" {
		t.Errorf("Progressing = %+v, want Unknown/DeploymentPaused", c)
	}

	// Resuming rolls the new template out and says so.
	f.edit(func(d *appsv1.Deployment) { d.Spec.Paused = false })
	f.syncAndSee()
	if len(f.replicaSets()) != 2 {
		t.Errorf("resumed deployment has %d ReplicaSets, want 2", len(f.replicaSets()))
	}
}

func TestPausedDeploymentScalesProportionally(t *testing.T) {
	f := rolledOut(t, appsv1.RollingUpdateDeploymentStrategyType)
	f.edit(func(d *appsv1.Deployment) { d.Spec.Template.Spec.Containers[0].Image = "web:v2" })
	f.syncAndSee() // new 3, old 8
	f.edit(func(d *appsv1.Deployment) {
		d.Spec.Paused = true
		d.Spec.Replicas = ref(int32(20))
	})
	f.syncAndSee()
	// 11 pods were sized for 13 (10 + surge 3) and 23 (20 + 3) are allowed
	// now: old 8*23/13 = 14.2 → +6, new 3*23/13 = 5.3 → +2, and the 4 left
	// over go to the largest.
	if n, o := *f.byImage("web:v2").Spec.Replicas, *f.byImage("web:v1").Spec.Replicas; n != 5 || o != 18 {
		t.Errorf("after scaling a paused rollout to 20: new %d old %d, want 5 and 18", n, o)
	}
}

func TestRecreateWaitsForOldPods(t *testing.T) {
	f := rolledOut(t, appsv1.RecreateDeploymentStrategyType)
	old := f.byImage("web:v1")
	var pods []*corev1.Pod
	for i := range 3 {
		p := &corev1.Pod{
			ObjectMeta: metav1.ObjectMeta{
				Name: fmt.Sprintf("%s-%d", old.Name, i), Namespace: old.Namespace, UID: types.UID(fmt.Sprintf("pod-%d", i)),
				Labels:          old.Spec.Template.Labels,
				OwnerReferences: []metav1.OwnerReference{*metav1.NewControllerRef(old, appsv1.SchemeGroupVersion.WithKind("ReplicaSet"))},
			},
			Status: corev1.PodStatus{Phase: corev1.PodRunning},
		}
		if _, err := f.Client.CoreV1().Pods(p.Namespace).Create(context.Background(), p, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
		pods = append(pods, p)
	}
	f.refreshCaches()
	f.edit(func(d *appsv1.Deployment) { d.Spec.Template.Spec.Containers[0].Image = "web:v2" })

	f.syncAndSee()
	if o := *f.byImage("web:v1").Spec.Replicas; o != 0 || len(f.replicaSets()) != 1 {
		t.Fatalf("first Recreate step: old at %d with %d ReplicaSets, want old at 0 and no new one", o, len(f.replicaSets()))
	}
	f.syncAndSee() // the old ReplicaSet still reports pods
	f.settle()     // it reports none, but the pods are still running
	f.syncAndSee()
	if len(f.replicaSets()) != 1 {
		t.Fatal("new ReplicaSet created while old pods still run")
	}

	// Each deleted pod is seen; only the last one wakes the deployment.
	for i, p := range pods {
		if err := f.Client.CoreV1().Pods(p.Namespace).Delete(context.Background(), p.Name, metav1.DeleteOptions{}); err != nil {
			t.Fatal(err)
		}
		f.refreshCaches()
		f.Queue.Added = nil
		f.c.podDeleted(p)
		if last := i == len(pods)-1; last != slices.Contains(f.Queue.Added, webKey) {
			t.Errorf("pod %d deleted: enqueued %v, want enqueued only after the last", i, f.Queue.Added)
		}
	}
	f.Events.Lines = nil
	f.syncAndSee()
	n := f.byImage("web:v2")
	if *n.Spec.Replicas != 10 {
		t.Errorf("new ReplicaSet created with %d, want all 10 at once", *n.Spec.Replicas)
	}
	if ev := f.Events.Lines; !slices.Equal(ev, []string{"Normal ScalingReplicaSet Scaled up replica set " + n.Name + " from 0 to 10"}) {
		t.Errorf("events = %q", ev)
	}
}

func TestRollbackAnnotationRestoresTheTemplate(t *testing.T) {
	f := rolledOut(t, appsv1.RollingUpdateDeploymentStrategyType)
	f.edit(func(d *appsv1.Deployment) {
		d.Spec.Template.Spec.Containers[0].Image = "web:v2"
		d.Annotations = map[string]string{model.ChangeCauseAnnotation: "to v2"}
	})
	for range 10 {
		f.syncAndSee()
		f.settle()
	}
	v1 := f.byImage("web:v1")
	if *f.byImage("web:v2").Spec.Replicas != 10 || v1.Annotations[model.RevisionAnnotation] != "1" {
		t.Fatalf("v2 rollout not done")
	}

	f.edit(func(d *appsv1.Deployment) { d.Annotations[model.RollbackToAnnotation] = "0" })
	f.Events.Lines = nil
	f.syncAndSee()
	d := f.deployment("web")
	if img := d.Spec.Template.Spec.Containers[0].Image; img != "web:v1" {
		t.Errorf("template image after rollback = %s, want web:v1", img)
	}
	if _, ok := d.Spec.Template.Labels[model.PodTemplateHashLabel]; ok {
		t.Error("rollback copied the pod-template-hash label into the deployment")
	}
	if _, ok := d.Annotations[model.RollbackToAnnotation]; ok {
		t.Error("rollback request not cleared")
	}
	if _, ok := d.Annotations[model.ChangeCauseAnnotation]; ok {
		t.Errorf("change cause of v2 kept after rolling back to v1: %v", d.Annotations)
	}
	if ev := f.Events.Lines; !slices.Equal(ev, []string{`Normal DeploymentRollback Rolled back deployment "web" to revision 1`}) {
		t.Errorf("events = %q", ev)
	}

	// The next sync adopts the v1 ReplicaSet as the new one at revision 3.
	f.syncAndSee()
	v1 = f.byImage("web:v1")
	if v1.Annotations[model.RevisionAnnotation] != "3" || v1.Annotations[model.RevisionHistoryAnnotation] != "1" {
		t.Errorf("v1 ReplicaSet after rollback: revision %q history %q, want 3 and 1",
			v1.Annotations[model.RevisionAnnotation], v1.Annotations[model.RevisionHistoryAnnotation])
	}
	if len(f.replicaSets()) != 2 {
		t.Errorf("rollback created a ReplicaSet: have %d", len(f.replicaSets()))
	}
}

func TestRollbackToTheCurrentTemplateIsRefused(t *testing.T) {
	f := rolledOut(t, appsv1.RollingUpdateDeploymentStrategyType)
	f.edit(func(d *appsv1.Deployment) { d.Annotations = map[string]string{model.RollbackToAnnotation: "1"} })
	f.Events.Lines = nil
	f.syncAndSee()
	if ev := f.Events.Lines; !slices.Equal(ev, []string{`Warning DeploymentRollbackTemplateUnchanged The rollback revision contains the same template as current deployment "web"`}) {
		t.Errorf("events = %q", ev)
	}
	f.edit(func(d *appsv1.Deployment) { d.Annotations = map[string]string{model.RollbackToAnnotation: "7"} })
	f.Events.Lines = nil
	f.syncAndSee()
	if ev := f.Events.Lines; !slices.Equal(ev, []string{"Warning DeploymentRollbackRevisionNotFound Unable to find the revision to rollback to."}) {
		t.Errorf("events = %q", ev)
	}
	if _, ok := f.deployment("web").Annotations[model.RollbackToAnnotation]; ok {
		t.Error("failed rollback request not cleared")
	}
}

func TestHashCollisionBumpsCollisionCount(t *testing.T) {
	d := webDeployment(2, "web:v1", appsv1.RollingUpdateDeploymentStrategyType)
	squatter := newRS("web-"+model.PodTemplateHash(&d.Spec.Template, nil), 1, map[string]string{"other": "x"}, fixtureNow)
	squatter.Labels = map[string]string{"other": "x"}
	f := newFixture(t, d, squatter)

	err := f.c.Sync(context.Background(), webKey)
	if err == nil {
		t.Fatal("Sync succeeded despite a name collision; want an error so that it is retried")
	}
	f.refreshCaches()
	got := f.deployment("web").Status.CollisionCount
	if got == nil || *got != 1 {
		t.Fatalf("collisionCount = %v, want 1", got)
	}
	f.syncAndSee()
	want := "web-" + model.PodTemplateHash(&d.Spec.Template, ref(int32(1)))
	if rs := f.byImage("web:v1"); rs.Name != want {
		t.Errorf("after the collision the ReplicaSet is %s, want %s", rs.Name, want)
	}
}

func TestEmptySelectorSelectsNothingAndWarns(t *testing.T) {
	d := webDeployment(2, "web:v1", appsv1.RollingUpdateDeploymentStrategyType)
	d.Spec.Selector = &metav1.LabelSelector{}
	d.Generation = 4
	f := newFixture(t, d)
	f.syncAndSee()
	if ev := f.Events.Lines; !slices.Equal(ev, []string{"Warning SelectingAll This deployment is selecting all pods. A non-empty selector is required."}) {
		t.Errorf("events = %q", ev)
	}
	if len(f.replicaSets()) != 0 {
		t.Error("a deployment selecting everything created a ReplicaSet")
	}
	if g := f.deployment("web").Status.ObservedGeneration; g != 4 {
		t.Errorf("observedGeneration = %d, want 4", g)
	}
}

func TestAdoptsMatchingOrphansAndReleasesMismatches(t *testing.T) {
	d := webDeployment(2, "web:v1", appsv1.RollingUpdateDeploymentStrategyType)
	orphan := newRS("web-orphan", 0, d.Spec.Selector.MatchLabels, fixtureNow)
	orphan.Labels = map[string]string{"app": "web"}
	stray := newRS("web-stray", 0, map[string]string{"app": "api"}, fixtureNow)
	stray.Labels = map[string]string{"app": "api"}
	stray.OwnerReferences = []metav1.OwnerReference{*metav1.NewControllerRef(d, controllerKind)}
	f := newFixture(t, d, orphan, stray)
	f.syncAndSee()

	var patched []string
	for _, a := range f.Client.Actions() {
		if p, ok := a.(k8stesting.PatchAction); ok {
			patched = append(patched, p.GetName()+" "+string(p.GetPatch()))
		}
	}
	wantAdopt := `web-orphan {"metadata":{"ownerReferences":[{"apiVersion":"apps/v1","kind":"Deployment","name":"web","uid":"uid-web","controller":true,"blockOwnerDeletion":true}],"uid":"uid-web-orphan"}}`
	wantRelease := `web-stray {"metadata":{"uid":"uid-web-stray","ownerReferences":[{"$patch":"delete","uid":"uid-web"}]}}`
	if !slices.Equal(patched, []string{wantAdopt, wantRelease}) {
		t.Errorf("patches =\n%s\nwant\n%s\n%s", strings.Join(patched, "\n"), wantAdopt, wantRelease)
	}
	if ref := metav1.GetControllerOf(f.replicaSetNamed("web-orphan")); ref == nil || ref.UID != d.UID {
		t.Error("orphan not adopted")
	}
	if ref := metav1.GetControllerOf(f.replicaSetNamed("web-stray")); ref != nil {
		t.Error("mismatching ReplicaSet not released")
	}
}

func TestProgressDeadlineExceeded(t *testing.T) {
	d := webDeployment(2, "web:v1", appsv1.RollingUpdateDeploymentStrategyType)
	d.Spec.ProgressDeadlineSeconds = ref(int32(60))
	f := newFixture(t, d)
	f.syncAndSee() // created; no pod ever becomes available
	f.syncAndSee()
	f.Queue.After = nil
	f.syncAndSee()
	if !slices.Contains(f.Queue.After, controltest.Delayed{Key: webKey, Delay: 61 * time.Second}) {
		t.Errorf("no progress check queued for the deadline: %v", f.Queue.After)
	}
	f.Clock.SetTime(fixtureNow.Add(61 * time.Second))
	f.syncAndSee()
	c := model.GetDeploymentCondition(f.deployment("web").Status, appsv1.DeploymentProgressing)
	name := f.byImage("web:v1").Name
	if c == nil || c.Status != corev1.ConditionFalse || c.Reason != model.ReasonProgressDeadlineExceeded ||
		c.Message != fmt.Sprintf("ReplicaSet %q has timed out progressing.", name) {
		t.Errorf("Progressing = %+v, want False/ProgressDeadlineExceeded", c)
	}
	if _, _, err := model.RolloutStatus(f.deployment("web"), 0); err == nil || err.Error() != `deployment "web" exceeded its progress deadline` {
		t.Errorf("kubectl rollout status error = %v", err)
	}
}

func TestHistoryBeyondTheLimitIsDeleted(t *testing.T) {
	d := webDeployment(1, "web:v1", appsv1.RollingUpdateDeploymentStrategyType)
	d.Spec.RevisionHistoryLimit = ref(int32(1))
	f := newFixture(t, d)
	for _, image := range []string{"web:v1", "web:v2", "web:v3"} {
		f.edit(func(d *appsv1.Deployment) { d.Spec.Template.Spec.Containers[0].Image = image })
		for range 8 {
			f.syncAndSee()
			f.settle()
		}
	}
	var images []string
	for _, rs := range f.replicaSets() {
		images = append(images, rs.Spec.Template.Spec.Containers[0].Image)
	}
	slices.Sort(images)
	if !slices.Equal(images, []string{"web:v2", "web:v3"}) {
		t.Errorf("ReplicaSets kept: %v, want the current one and one old (v2)", images)
	}
}
