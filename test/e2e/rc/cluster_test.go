package rc

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

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
	replicas = 3
	maxSurge = 1
)

// Pods are ready about a second after they are bound and go quickly once
// deleted.
var images = []kubelet.ImageRule{{Match: "*", Pull: 200 * time.Millisecond, Start: 200 * time.Millisecond,
	Ready: 600 * time.Millisecond, Stop: 200 * time.Millisecond}}

// cluster is the control plane the cases share, with two hollow nodes.
type cluster struct{ *e2etest.Cluster }

func startCluster(t *testing.T) *cluster {
	t.Helper()
	group := e2etest.HollowGroup(2, 300*time.Millisecond, e2etest.Capacity("50", "8", "16Gi"))
	return &cluster{e2etest.Start(t, e2etest.Setup{Patience: patience, Nodes: live.Nodes{Groups: []nodegroup.Group{group}, Images: images}})}
}

// poll waits until check says done, failing the test with the last state
// it described.
func poll(t *testing.T, what string, check func(ctx context.Context) (bool, string, error)) {
	t.Helper()
	e2etest.Poll(t, patience, what, check)
}

// web creates namespace ns with the ReplicationController web of replicas
// pods on oldImage, and waits for them to be ready.
func (c *cluster) web(t *testing.T, ns string) {
	t.Helper()
	ctx := t.Context()
	c.Namespace(t, ns)
	n := int32(replicas)
	labels := map[string]string{"app": "web"}
	rc := &corev1.ReplicationController{
		ObjectMeta: metav1.ObjectMeta{Name: "web", Namespace: ns},
		Spec: corev1.ReplicationControllerSpec{
			Replicas: &n, Selector: labels, MinReadySeconds: 1,
			Template: &corev1.PodTemplateSpec{
				ObjectMeta: metav1.ObjectMeta{Labels: labels},
				Spec:       corev1.PodSpec{Containers: []corev1.Container{{Name: "app", Image: oldImage}}},
			},
		},
	}
	if _, err := c.Admin.CoreV1().ReplicationControllers(ns).Create(ctx, rc, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	c.settled(t, ns, oldImage)
}

// settled waits until web alone runs image: one controller, at full size,
// no update annotations, every pod its own, on image, ready, none
// terminating and none orphaned.
func (c *cluster) settled(t *testing.T, ns, image string) {
	t.Helper()
	poll(t, "web alone on "+image+" in "+ns, func(ctx context.Context) (bool, string, error) {
		rcs, err := c.Admin.CoreV1().ReplicationControllers(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, "", err
		}
		pods, err := c.Admin.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, "", err
		}
		state := describe(rcs.Items, pods.Items)
		if len(rcs.Items) != 1 || rcs.Items[0].Name != "web" {
			return false, state, nil
		}
		rc := rcs.Items[0]
		if len(rc.Annotations) > 0 || *rc.Spec.Replicas != replicas || rc.Status.ReadyReplicas != replicas ||
			rc.Status.ObservedGeneration < rc.Generation || rc.Spec.Template.Spec.Containers[0].Image != image || len(pods.Items) != replicas {
			return false, state, nil
		}
		for _, p := range pods.Items {
			owner := metav1.GetControllerOf(&p)
			if owner == nil || owner.UID != rc.UID || p.DeletionTimestamp != nil || p.Spec.Containers[0].Image != image {
				return false, state, nil
			}
		}
		return true, state, nil
	})
}

func describe(rcs []corev1.ReplicationController, pods []corev1.Pod) string {
	var b strings.Builder
	for _, rc := range rcs {
		fmt.Fprintf(&b, "rc %s size %d ready %d image %s annotations %v; ", rc.Name, *rc.Spec.Replicas, rc.Status.ReadyReplicas,
			rc.Spec.Template.Spec.Containers[0].Image, rc.Annotations)
	}
	for _, p := range pods {
		owner := "none"
		if o := metav1.GetControllerOf(&p); o != nil {
			owner = o.Name
		}
		fmt.Fprintf(&b, "pod %s owner %s image %s terminating %v; ", p.Name, owner, p.Spec.Containers[0].Image, p.DeletionTimestamp != nil)
	}
	return b.String()
}

// podCount watches the pods of a namespace and remembers the most that ran
// at once (not terminating, not finished).
type podCount struct {
	mu   sync.Mutex
	most int
}

func watchPods(t *testing.T, client kubernetes.Interface, ns string) *podCount {
	t.Helper()
	pc := &podCount{}
	f := informers.NewSharedInformerFactoryWithOptions(client, 0, informers.WithNamespace(ns))
	inf := f.Core().V1().Pods().Informer()
	count := func(any) {
		n := 0
		for _, o := range inf.GetStore().List() {
			if p, ok := o.(*corev1.Pod); ok && p.DeletionTimestamp == nil && p.Status.Phase != corev1.PodSucceeded && p.Status.Phase != corev1.PodFailed {
				n++
			}
		}
		pc.mu.Lock()
		pc.most = max(pc.most, n)
		pc.mu.Unlock()
	}
	if _, err := inf.AddEventHandler(cache.ResourceEventHandlerFuncs{AddFunc: count, UpdateFunc: func(_, o any) { count(o) }, DeleteFunc: count}); err != nil {
		t.Fatal(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	f.Start(ctx.Done())
	t.Cleanup(func() { stop(); f.Shutdown() })
	if !cache.WaitForCacheSync(t.Context().Done(), inf.HasSynced) {
		t.Fatal("the pod watch never synced")
	}
	return pc
}

func (pc *podCount) max() int {
	pc.mu.Lock()
	defer pc.mu.Unlock()
	return pc.most
}
