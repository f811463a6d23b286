package model_test

import (
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/model"
)

var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// revisioned is a ReplicaSet at revision rev ("" for none) running image,
// created minutes after epoch.
func revisioned(name, rev, image string, minutes int) *appsv1.ReplicaSet {
	rs := replicaSet(name, 0)
	rs.UID = types.UID("uid-" + rs.Name)
	rs.CreationTimestamp = metav1.NewTime(epoch.Add(time.Duration(minutes) * time.Minute))
	if rev != "" {
		rs.Annotations = map[string]string{model.RevisionAnnotation: rev}
	}
	rs.Spec.Template = template(image)
	rs.Spec.Template.Labels[model.PodTemplateHashLabel] = "h-" + name
	return rs
}

func template(image string) corev1.PodTemplateSpec {
	return corev1.PodTemplateSpec{
		ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
		Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "web", Image: image}}},
	}
}

func deploymentWith(image string) *appsv1.Deployment {
	d := rollingDeployment("RollingUpdate", ref(int32(3)), nil, nil)
	d.Spec.Template = template(image)
	return d
}

func TestMaxAndLastRevision(t *testing.T) {
	rss := []*appsv1.ReplicaSet{
		revisioned("a", "3", "v3", 0), revisioned("b", "7", "v7", 1),
		revisioned("c", "oops", "x", 2), revisioned("d", "", "none", 3), revisioned("e", "5", "v5", 4),
	}
	if got := model.MaxRevision(rss); got != 7 {
		t.Errorf("MaxRevision = %d, want 7", got)
	}
	if got := model.LastRevision(rss); got != 5 {
		t.Errorf("LastRevision = %d, want 5", got)
	}
	// Equal top revisions: the second one counts as the previous.
	if got := model.LastRevision([]*appsv1.ReplicaSet{revisioned("a", "4", "x", 0), revisioned("b", "4", "y", 1)}); got != 4 {
		t.Errorf("LastRevision of equal revisions = %d, want 4", got)
	}
	if _, err := model.Revision(revisioned("c", "oops", "x", 0)); err == nil {
		t.Error("Revision of an unreadable annotation: want an error")
	}
}

func TestFindNewAndOldReplicaSets(t *testing.T) {
	d := deploymentWith("v2")
	older := revisioned("older", "2", "v2", 0)
	newer := revisioned("newer", "3", "v2", 5)
	old := revisioned("old", "1", "v1", -5)
	old.Spec.Replicas = ref(int32(2))
	rss := []*appsv1.ReplicaSet{newer, old, older}
	if got := model.FindNewReplicaSet(d, rss); got != older {
		t.Fatalf("FindNewReplicaSet = %v, want the oldest matching ReplicaSet", got.Name)
	}
	required, all := model.FindOldReplicaSets(d, rss)
	if len(all) != 2 || all[0] != newer || all[1] != old {
		t.Errorf("FindOldReplicaSets all = %v, want [newer old] in given order", names(all))
	}
	if len(required) != 1 || required[0] != old {
		t.Errorf("FindOldReplicaSets required = %v, want [old]", names(required))
	}
	if model.FindNewReplicaSet(deploymentWith("v9"), rss) != nil {
		t.Error("FindNewReplicaSet found a ReplicaSet for a template none runs")
	}
}

func names(rss []*appsv1.ReplicaSet) []string {
	var out []string
	for _, rs := range rss {
		out = append(out, rs.Name)
	}
	return out
}

func TestFindRevisionAsKubectlUndo(t *testing.T) {
	d := deploymentWith("v3")
	rss := []*appsv1.ReplicaSet{revisioned("r3", "3", "v3", 3), revisioned("r1", "1", "v1", 1), revisioned("r2", "2", "v2", 2)}
	for _, c := range []struct {
		to      int64
		want    string
		wantErr string
	}{
		{0, "r2", ""},
		{1, "r1", ""},
		{9, "", "unable to find specified revision 9 in history"},
		{-1, "", "unable to find specified revision -1 in history"},
	} {
		got, err := model.FindRevision(d, rss, c.to)
		switch {
		case c.wantErr != "":
			if err == nil || err.Error() != c.wantErr {
				t.Errorf("FindRevision(%d) error = %v, want %q", c.to, err, c.wantErr)
			}
		case err != nil || got.Name != c.want:
			t.Errorf("FindRevision(%d) = %v, %v; want %s", c.to, got, err, c.want)
		}
	}
	_, err := model.FindRevision(d, rss[:1], 0)
	if err == nil || err.Error() != `no rollout history found for deployment "foo"` {
		t.Errorf("FindRevision with one revision: error %v", err)
	}
}

func TestRollbackPatchKeepsDeploymentOwnAnnotations(t *testing.T) {
	d := deploymentWith("v2")
	d.Annotations = map[string]string{model.RevisionAnnotation: "2", model.LastAppliedAnnotation: "{}", "team": "web"}
	rs := revisioned("r1", "1", "v1", 0)
	rs.Annotations[model.ChangeCauseAnnotation] = "first"
	rs.Annotations[model.DesiredReplicasAnnotation] = "3"
	got, err := model.RollbackPatch(d, rs)
	if err != nil {
		t.Fatal(err)
	}
	wantAnn := `{"op":"replace","path":"/metadata/annotations","value":{"deployment.kubernetes.io/revision":"2","kubectl.kubernetes.io/last-applied-configuration":"{}","kubernetes.io/change-cause":"first"}}`
	if !strings.Contains(string(got), wantAnn) {
		t.Errorf("RollbackPatch = %s\nwant annotations %s", got, wantAnn)
	}
	if strings.Contains(string(got), model.PodTemplateHashLabel) {
		t.Errorf("RollbackPatch keeps the pod-template-hash label: %s", got)
	}
}

func TestNilReplicaSetsDoNotPanic(t *testing.T) {
	var none *appsv1.ReplicaSet
	rss := []*appsv1.ReplicaSet{revisioned("b", "2", "x", 1), none, revisioned("a", "1", "x", 0)}
	for name, sort := range map[string]func([]*appsv1.ReplicaSet){
		"ByCreationTimestamp": model.SortByCreationTimestamp, "NewestFirst": model.SortByCreationTimestampNewestFirst,
		"BySizeNewer": model.SortBySizeNewer, "BySizeOlder": model.SortBySizeOlder, "ByRevision": model.SortByRevision,
	} {
		sort(rss)
		if rss[2] != nil {
			t.Errorf("Sort%s: nil entry not last: %v", name, rss)
		}
	}
	if v, err := model.Revision(none); v != 0 || err != nil {
		t.Errorf("Revision(nil) = %d, %v", v, err)
	}
	if model.MaxRevision(rss) != 2 || model.LastRevision(rss) != 1 || model.ReplicaCount(rss) != 0 {
		t.Error("nil entries changed the sums")
	}
}
