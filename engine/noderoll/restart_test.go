package noderoll

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes/fake"

	"rollscope/model"
)

func poolNode(name string, ann map[string]string) *corev1.Node {
	return &corev1.Node{ObjectMeta: metav1.ObjectMeta{Name: name, Labels: map[string]string{model.NodeGroupLabel: "pool"}, Annotations: ann}}
}

// n on a stopped roll requests it again on the outdated nodes left, with
// the settings it was started with.
func TestContinueOrRestartTakesAStoppedRollUpAgainWithItsSettings(t *testing.T) {
	spec := `{"maxUnavailable":"50%","step":true,"deleteNodes":true,"id":"r1","group":"pool","role":"Node","size":2,"count":2}`
	outdated := map[string]string{model.NeedsUpdateAnnotation: "", model.RollAnnotation: spec, model.RollStateAnnotation: model.RollStopped}
	c := fake.NewClientset(poolNode("pool-a", outdated), poolNode("pool-b", map[string]string{}))
	ctx := context.Background()
	if err := ContinueOrRestart(ctx, c, "pool", time.Date(2026, 11, 21, 10, 0, 0, 0, time.UTC)); err != nil {
		t.Fatal(err)
	}
	n, err := c.CoreV1().Nodes().Get(ctx, "pool-a", metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	got := n.Annotations[model.RollAnnotation]
	if n.Annotations[model.RollStateAnnotation] != model.RollRunning || !strings.Contains(got, `"maxUnavailable":"50%"`) ||
		!strings.Contains(got, `"step":true`) || !strings.Contains(got, `"deleteNodes":true`) || strings.Contains(got, `"id":"r1"`) {
		t.Errorf("after n: state %q, roll %s; want a new running roll with the stopped one's settings", n.Annotations[model.RollStateAnnotation], got)
	}
}

// n on a roll waiting for it only lets it take the next node.
func TestContinueOrRestartContinuesAWaitingRoll(t *testing.T) {
	spec := `{"step":true,"id":"r1","group":"pool","role":"Node","size":1,"count":1}`
	c := fake.NewClientset(poolNode("pool-a", map[string]string{model.RollAnnotation: spec, model.RollStateAnnotation: model.RollWaiting}))
	ctx := context.Background()
	if err := ContinueOrRestart(ctx, c, "pool", time.Now()); err != nil {
		t.Fatal(err)
	}
	n, _ := c.CoreV1().Nodes().Get(ctx, "pool-a", metav1.GetOptions{})
	if n.Annotations[model.RollStateAnnotation] != model.RollRunning || n.Annotations[model.RollAnnotation] != spec {
		t.Errorf("after n: %v; want the same roll, running", n.Annotations)
	}
	if err := ContinueOrRestart(ctx, c, "other", time.Now()); !errors.Is(err, ErrNoGroup) {
		t.Errorf("n on a group with no nodes: %v", err)
	}
}
