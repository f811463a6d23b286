package canary

import (
	"context"
	"fmt"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/engine/kubelet"
	"rollscope/engine/live"
	"rollscope/engine/nodegroup"
	"rollscope/test/e2e/e2etest"
)

// patience bounds every wait on the cluster; it asserts nothing about speed.
const patience = 2 * time.Minute

const (
	oldImage = "e2e.example/web:v1"
	newImage = "e2e.example/web:v2"
)

// cluster is the control plane the cases share, with hollow nodes whose
// pods are ready about a second after they are bound.
type cluster struct{ *e2etest.Cluster }

func startCluster(t *testing.T) *cluster {
	t.Helper()
	group := e2etest.HollowGroup(3, 300*time.Millisecond, e2etest.Capacity("60", "16", "32Gi"))
	images := []kubelet.ImageRule{{Match: "*", Pull: 200 * time.Millisecond, Start: 200 * time.Millisecond,
		Ready: 500 * time.Millisecond, Stop: 200 * time.Millisecond}}
	return &cluster{e2etest.Start(t, e2etest.Setup{Patience: patience, Nodes: live.Nodes{Groups: []nodegroup.Group{group}, Images: images}})}
}

// web creates namespace ns with deployment web of replicas pods on
// oldImage and the given budgets, and waits until it is fully available.
func (c *cluster) web(t *testing.T, ns string, replicas int32, surge, unavailable intstr.IntOrString, minReady int32) *appsv1.Deployment {
	t.Helper()
	ctx := t.Context()
	c.Namespace(t, ns)
	d := e2etest.RollingUpdate(e2etest.Deployment(ns, "web", replicas, oldImage), surge, unavailable)
	d.Spec.MinReadySeconds = minReady
	deadline := int32(300)
	d.Spec.ProgressDeadlineSeconds = &deadline
	if _, err := c.Admin.AppsV1().Deployments(ns).Create(ctx, d, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	var got *appsv1.Deployment
	e2etest.Poll(t, patience, "deployment web fully available on "+oldImage, func(ctx context.Context) (bool, string, error) {
		var err error
		got, err = c.Admin.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		s := got.Status
		return s.ObservedGeneration >= got.Generation && s.UpdatedReplicas == replicas && s.AvailableReplicas == replicas && s.Replicas == replicas,
			fmt.Sprintf("%d updated, %d available of %d", s.UpdatedReplicas, s.AvailableReplicas, replicas), nil
	})
	return got
}
