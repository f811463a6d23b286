package canary

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes/fake"
	clienttesting "k8s.io/client-go/testing"

	"rollscope/model"
	"rollscope/model/action"
)

var (
	ctx    = context.Background()
	target = Target{Namespace: "default", Name: "web"}
	now    = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
)

// web is a finished rollout of 10 replicas on a:1 with its own budgets.
func web() *appsv1.Deployment {
	replicas, deadline := int32(10), int32(600)
	surge, unavailable := intstr.FromString("25%"), intstr.FromInt32(1)
	d := &appsv1.Deployment{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: "default", Generation: 1, ResourceVersion: "7", Annotations: map[string]string{}},
		Spec: appsv1.DeploymentSpec{Replicas: &replicas, MinReadySeconds: 5, ProgressDeadlineSeconds: &deadline,
			Strategy: appsv1.DeploymentStrategy{Type: appsv1.RollingUpdateDeploymentStrategyType,
				RollingUpdate: &appsv1.RollingUpdateDeployment{MaxSurge: &surge, MaxUnavailable: &unavailable}},
			Template: corev1.PodTemplateSpec{ObjectMeta: metav1.ObjectMeta{Labels: map[string]string{"app": "web"}},
				Spec: corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: "a:1"}}}}},
		Status: appsv1.DeploymentStatus{ObservedGeneration: 1, Replicas: 10, UpdatedReplicas: 10, AvailableReplicas: 10},
	}
	return d
}

func updates(c *fake.Clientset) []*appsv1.Deployment {
	var out []*appsv1.Deployment
	for _, a := range c.Actions() {
		if u, ok := a.(clienttesting.UpdateAction); ok {
			out = append(out, u.GetObject().(*appsv1.Deployment))
		}
	}
	return out
}

// Start is one update, written with the resourceVersion read, that changes
// the template and holds step 1 with the deployment's own settings saved.
func TestStartIsOneUpdateHoldingStepOne(t *testing.T) {
	d := web()
	c := fake.NewSimpleClientset(d)
	cn, err := Start(ctx, c, target, Ask{Container: "app", Image: "a:2", Steps: []string{"1", "30%"}, Holds: []string{"2m"}}, now)
	if err != nil {
		t.Fatal(err)
	}
	u := updates(c)
	if len(u) != 1 {
		t.Fatalf("start sent %d updates, want 1", len(u))
	}
	sent := u[0]
	if sent.ResourceVersion != "7" {
		t.Errorf("written with resourceVersion %q, want the one read", sent.ResourceVersion)
	}
	ru := sent.Spec.Strategy.RollingUpdate
	if sent.Spec.Template.Spec.Containers[0].Image != "a:2" || ru.MaxSurge.IntValue() != 1 || ru.MaxUnavailable.IntValue() != 0 ||
		sent.Spec.MinReadySeconds != model.CanaryHoldMinReadySeconds || *sent.Spec.ProgressDeadlineSeconds != model.CanaryHoldDeadlineSeconds {
		t.Errorf("step 1 holds %+v minReady %d deadline %d", sent.Spec.Strategy, sent.Spec.MinReadySeconds, *sent.Spec.ProgressDeadlineSeconds)
	}
	got, ok, err := model.ReadCanary(sent)
	if err != nil || !ok || got.State.Step != 1 || got.Plan.Original.MinReadySeconds != 5 || got.Plan.Original.Strategy.RollingUpdate.MaxSurge.String() != "25%" {
		t.Errorf("the annotations say %+v (%v, %v)", got, ok, err)
	}
	if pods := []int32{cn.Plan.Step(1).Pods, cn.Plan.Step(2).Pods, cn.Plan.Step(3).Pods}; pods[0] != 1 || pods[1] != 3 || pods[2] != 10 {
		t.Errorf("steps %v, want 1, 3 (30%% of 10), 10", pods)
	}
}

// What a canary cannot start on is refused in one line, and nothing is sent.
func TestStartRefusalsSendNothing(t *testing.T) {
	paused := web()
	paused.Spec.Paused = true
	rolling := web()
	rolling.Status.UpdatedReplicas = 4
	recreate := web()
	recreate.Spec.Strategy = appsv1.DeploymentStrategy{Type: appsv1.RecreateDeploymentStrategyType}
	cases := []struct {
		name string
		d    *appsv1.Deployment
		ask  Ask
		want string
	}{
		{"paused", paused, Ask{Container: "app", Image: "a:2", Steps: []string{"1"}}, "is paused — resume it first (r)"},
		{"still rolling", rolling, Ask{Container: "app", Image: "a:2", Steps: []string{"1"}}, "is still rolling out — let it finish, or abort (x)"},
		{"recreate", recreate, Ask{Container: "app", Image: "a:2", Steps: []string{"1"}}, "uses the Recreate strategy: a canary needs RollingUpdate"},
		{"same image", web(), Ask{Container: "app", Image: "a:1", Steps: []string{"1"}}, "changes nothing in deployment/web"},
		{"no such container", web(), Ask{Container: "side", Image: "a:2", Steps: []string{"1"}}, `has no container "side" (containers: app)`},
		{"steps too big", web(), Ask{Container: "app", Image: "a:2", Steps: []string{"1", "11"}}, "more than the deployment's 10 replicas"},
		{"bad onFailure", web(), Ask{Container: "app", Image: "a:2", Steps: []string{"1"}, OnFailure: "retry"}, `onFailure "retry" is neither pause nor abort`},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			c := fake.NewSimpleClientset(tc.d)
			_, err := Start(ctx, c, target, tc.ask, now)
			if err == nil || !strings.Contains(err.Error(), tc.want) || strings.Contains(err.Error(), "\n") {
				t.Errorf("error %v, want one line saying %q", err, tc.want)
			}
			if u := updates(c); len(u) != 0 {
				t.Errorf("a refused canary sent %d updates", len(u))
			}
		})
	}
}

// Promote goes one step on, or straight to 100% with the deployment's own
// settings back; a canary that moved on meanwhile is not promoted twice.
func TestPromote(t *testing.T) {
	d := web()
	c := fake.NewSimpleClientset(d)
	if _, err := Start(ctx, c, target, Ask{Container: "app", Image: "a:2", Steps: []string{"1", "30%"}}, now); err != nil {
		t.Fatal(err)
	}
	if _, err := Promote(ctx, c, target, 2, false, now); err == nil || !strings.Contains(err.Error(), "moved on to step 1 of 3 meanwhile") {
		t.Errorf("a promote from a step the canary is not at: %v", err)
	}
	st, err := Promote(ctx, c, target, 1, false, now)
	if err != nil || st.Step != 2 || st.Phase != model.CanaryHolding {
		t.Fatalf("promote: %+v %v", st, err)
	}
	if got := updates(c); got[len(got)-1].Spec.Strategy.RollingUpdate.MaxSurge.IntValue() != 3 {
		t.Errorf("step 2 holds maxSurge %v, want 3", got[len(got)-1].Spec.Strategy.RollingUpdate.MaxSurge)
	}
	st, err = Promote(ctx, c, target, 0, true, now)
	if err != nil || st.Step != 3 || st.Phase != model.CanaryRolling {
		t.Fatalf("promote all: %+v %v", st, err)
	}
	last := updates(c)[len(updates(c))-1]
	if got, want := model.CanaryOriginalOf(last), model.CanaryOriginalOf(web()); got.MinReadySeconds != want.MinReadySeconds ||
		*got.ProgressDeadlineSeconds != 600 || got.Strategy.RollingUpdate.MaxSurge.String() != "25%" || got.Strategy.RollingUpdate.MaxUnavailable.IntValue() != 1 {
		t.Errorf("at 100%% the deployment has %+v, want its own settings back", got)
	}
	if _, err := Promote(ctx, c, target, 0, false, now); !errors.Is(err, action.ErrNothingToDo) {
		t.Errorf("a promote at the last step: %v, want nothing to do", err)
	}
}

// Promote on a deployment with no canary sends nothing.
func TestPromoteWithoutACanary(t *testing.T) {
	c := fake.NewSimpleClientset(web())
	if _, err := Promote(ctx, c, target, 0, false, now); !errors.Is(err, action.ErrNothingToDo) || !strings.Contains(err.Error(), "runs no canary") {
		t.Errorf("promote without a canary: %v", err)
	}
	if len(updates(c)) != 0 {
		t.Error("sent an update")
	}
}
