package perform_test

import (
	"context"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/engine/perform"
	"rollscope/engine/rollingupdate"
	"rollscope/model/action"
)

// frontendRC is ReplicationController default/frontend: 3 pods on a:1.
func frontendRC() *corev1.ReplicationController {
	replicas := int32(3)
	tpl := template("a:1")
	return &corev1.ReplicationController{ObjectMeta: metav1.ObjectMeta{Name: "frontend", Namespace: "default"},
		Spec: corev1.ReplicationControllerSpec{Replicas: &replicas, Selector: map[string]string{"app": "web"}, Template: &tpl}}
}

// The dialog's fields are checked, each refusal saying what to write, and
// an update that will work is planned without writing anything.
func TestPlanRCUpdateChecksTheFieldsAndPlans(t *testing.T) {
	c, _ := memCluster(t, frontendRC())
	p := perform.New(perform.Config{Client: c})
	ctx := context.Background()
	in := action.RCUpdateInput{Name: "frontend", Image: "a:2", MaxSurge: "1", MaxUnavailable: "0", UpdatePeriod: "1m"}
	for _, tc := range []struct {
		edit func(*action.RCUpdateInput)
		want string
	}{
		{func(in *action.RCUpdateInput) { in.Image = "" }, "the image is empty"},
		{func(in *action.RCUpdateInput) { in.MaxSurge = "many" }, `maxSurge "many" is neither a count nor a percentage — write 1 or 25%`},
		{func(in *action.RCUpdateInput) { in.MaxUnavailable = "-1" }, `maxUnavailable "-1" is negative — write 0 or more`},
		{func(in *action.RCUpdateInput) { in.UpdatePeriod = "soon" }, `update period "soon" is not a duration — write it as 1m, 30s or 1m30s`},
		{func(in *action.RCUpdateInput) { in.Image = "a:1" }, "already runs a:1"},
		{func(in *action.RCUpdateInput) { in.Name = "gone" }, `replicationcontroller "gone" not found`},
	} {
		bad := in
		tc.edit(&bad)
		if _, err := p.PlanRCUpdate(ctx, "default", bad); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%+v: %v, want %q", bad, err, tc.want)
		}
	}
	plan, err := p.PlanRCUpdate(ctx, "default", in)
	if err != nil {
		t.Fatal(err)
	}
	if plan.Container != "app" || plan.FromImage != "a:1" || plan.Replicas != 3 || !plan.Rename || plan.UpdatePeriod.String() != "1m0s" {
		t.Errorf("plan %+v", plan)
	}
	rc, _ := c.CoreV1().ReplicationControllers("default").Get(ctx, "frontend", metav1.GetOptions{})
	if _, asked := rc.Annotations[rollingupdate.RequestAnnotation]; asked {
		t.Error("planning asked for the update")
	}
}

// rc-update asks the rolling-update controller for the planned update of
// the controller named; rc-abort on a controller with no update in
// progress says what to do instead.
func TestRCRequestsAskTheRollingUpdateController(t *testing.T) {
	c, _ := memCluster(t, frontendRC())
	p := perform.New(perform.Config{Client: c})
	ctx := context.Background()
	plan, err := p.PlanRCUpdate(ctx, "default", action.RCUpdateInput{Name: "frontend", Image: "a:2", MaxSurge: "1", MaxUnavailable: "0", UpdatePeriod: "1m"})
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Send(ctx, action.Request{Action: action.RCAbort, Namespace: "default", Name: "frontend"})
	if err == nil || !strings.Contains(err.Error(), "has no update in progress, so there is nothing to abort") {
		t.Errorf("abort with no update: %v", err)
	}
	got, err := p.Send(ctx, action.Request{Action: action.RCUpdate, Namespace: "default", Name: "frontend", RCUpdate: plan.Request})
	if err != nil || got != "asked" {
		t.Fatalf("rc-update: %q, %v", got, err)
	}
	rc, _ := c.CoreV1().ReplicationControllers("default").Get(ctx, "frontend", metav1.GetOptions{})
	if req := rc.Annotations[rollingupdate.RequestAnnotation]; !strings.Contains(req, "a:2") {
		t.Errorf("request annotation %q, want the update to a:2", req)
	}
}
