package actions

import (
	"errors"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

	"rollscope/model"
	"rollscope/model/action"
)

// midRollout is web rolling from revision 1 (a:1, 3 available) to
// revision 2 (a:2, 1 pod, not yet available), paused part-way like a
// guided canary.
func midRollout(paused bool) (*appsv1.Deployment, *appsv1.ReplicaSet, *appsv1.ReplicaSet) {
	d := deployment(paused, "a:2")
	d.Annotations[model.ChangeCauseAnnotation] = "rev 2"
	d.Generation, d.Status.ObservedGeneration = 2, 2
	d.Status.Replicas, d.Status.UpdatedReplicas, d.Status.AvailableReplicas = 4, 1, 3
	one, two := replicaSet("one", "1", "a:1"), replicaSet("two", "2", "a:2")
	one.Status.AvailableReplicas, two.Status.AvailableReplicas = 3, 0
	return d, one, two
}

func TestAbortGoesBackToTheStableReplicaSet(t *testing.T) {
	d, one, two := midRollout(true)
	c := fake.NewSimpleClientset(d, one, two)
	got, err := Abort(ctx, c, target)
	if err != nil {
		t.Fatal(err)
	}
	if got.Revision != 2 || got.Back != 1 || got.String() != "revision 2 aborted, back on revision 1's template, now revision 3" {
		t.Fatalf("abort says %+v (%s), want revision 2 aborted, back on 1", got, got)
	}
	w := writes(c)
	if len(w) != 1 || w[0].GetVerb() != "update" || w[0].GetSubresource() != "" {
		t.Fatalf("abort sent %v, want exactly one update of the deployment", w)
	}
	sent := w[0].(clienttesting.UpdateAction).GetObject().(*appsv1.Deployment)
	if sent.ResourceVersion != d.ResourceVersion {
		t.Errorf("abort wrote resourceVersion %q, want the one it read (%q)", sent.ResourceVersion, d.ResourceVersion)
	}
	if img := sent.Spec.Template.Spec.Containers[0].Image; img != "a:1" {
		t.Errorf("abort put image %s back, want a:1", img)
	}
	if _, ok := sent.Spec.Template.Labels[model.PodTemplateHashLabel]; ok {
		t.Errorf("abort copied the pod-template-hash label onto the deployment's template")
	}
	if sent.Spec.Paused {
		t.Errorf("abort left the deployment paused; the controller would not roll back")
	}
	want := map[string]string{
		AbortedRevisionAnnotation:   "2",
		AbortedToAnnotation:         "1",
		AbortedAnnotation:           "revision 2 aborted, back on revision 1's template, now revision 3",
		model.ChangeCauseAnnotation: "rev 1",
		model.RevisionAnnotation:    "2",
	}
	for k, v := range want {
		if sent.Annotations[k] != v {
			t.Errorf("annotation %s = %q, want %q", k, sent.Annotations[k], v)
		}
	}
}

func TestAbortPicksTheServingOldReplicaSet(t *testing.T) {
	// Revision 3 interrupted a rollout from 1 to 2: revision 1 still
	// serves most pods, so that is where an abort goes.
	d := deployment(false, "a:3")
	one, two, three := replicaSet("one", "1", "a:1"), replicaSet("two", "2", "a:2"), replicaSet("three", "3", "a:3")
	one.Status.AvailableReplicas, two.Status.AvailableReplicas = 2, 1
	stable, aborted, err := StableReplicaSet(d, []*appsv1.ReplicaSet{one, two, three})
	if err != nil {
		t.Fatal(err)
	}
	if stable != one || aborted != 3 {
		t.Fatalf("stable %s, aborted %d; want web-one and 3", stable.Name, aborted)
	}
}

func TestAbortRefusesWithNothingToAbort(t *testing.T) {
	finished := deployment(false, "a:2")
	finished.Status = appsv1.DeploymentStatus{Replicas: 3, UpdatedReplicas: 3, AvailableReplicas: 3}
	first := deployment(false, "a:2")
	cases := []struct {
		name string
		d    *appsv1.Deployment
		want string
	}{
		{"finished rollout", finished, "the rollout of revision 2 has finished — nothing to abort"},
		{"first rollout", first, "revision 2 is the first"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := fake.NewSimpleClientset(tc.d, replicaSet("two", "2", "a:2"))
			_, err := Abort(ctx, c, target)
			if err == nil || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, action.ErrNothingToDo) {
				t.Fatalf("error %v, want ErrNothingToDo saying %q", err, tc.want)
			}
			if w := writes(c); len(w) != 0 {
				t.Fatalf("sent %v", w)
			}
		})
	}
}

// A write that meets a conflict is tried again from a fresh read; other
// refusals are not retried and say what went wrong in plain words.
func TestWritesRetryOnConflict(t *testing.T) {
	gr := schema.GroupResource{Group: "apps", Resource: "deployments"}
	cases := []struct {
		name     string
		verb     string
		fail     error
		failures int
		do       func(*fake.Clientset) error
		wantErr  string // "" for success
		attempts int
	}{
		{"pause after one conflict", "patch", apierrors.NewConflict(gr, "web", errors.New("changed")), 1,
			func(c *fake.Clientset) error { return Pause(ctx, c, target) }, "", 2},
		{"abort after two conflicts", "update", apierrors.NewConflict(gr, "web", errors.New("changed")), 2,
			func(c *fake.Clientset) error { _, err := Abort(ctx, c, target); return err }, "", 3},
		{"forbidden is not retried", "patch", apierrors.NewForbidden(gr, "web", errors.New("no")), 9,
			func(c *fake.Clientset) error { return Pause(ctx, c, target) }, "forbidden", 1},
		{"webhook denial", "patch", apierrors.NewBadRequest(`admission webhook "policy.example.com" denied the request: no latest tags`), 9,
			func(c *fake.Clientset) error { return SetImage(ctx, c, target, "app", "a:latest", "") }, "an admission webhook denied it", 1},
		{"timeout", "patch", apierrors.NewTimeoutError("slow", 1), 9,
			func(c *fake.Clientset) error { return Scale(ctx, c, target, 2) }, "did not answer in time", 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			d, one, two := midRollout(false)
			c := fake.NewSimpleClientset(d, one, two)
			left, attempts := tc.failures, 0
			c.PrependReactor(tc.verb, "deployments", func(clienttesting.Action) (bool, runtime.Object, error) {
				attempts++
				if left == 0 {
					return false, nil, nil
				}
				left--
				return true, nil, tc.fail
			})
			err := tc.do(c)
			switch {
			case tc.wantErr == "" && err != nil:
				t.Fatalf("failed: %v", err)
			case tc.wantErr != "" && (err == nil || !strings.Contains(err.Error(), tc.wantErr)):
				t.Fatalf("error %v, want one saying %q", err, tc.wantErr)
			}
			if attempts != tc.attempts {
				t.Fatalf("%d attempts, want %d", attempts, tc.attempts)
			}
		})
	}
}
