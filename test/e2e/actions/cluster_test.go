package actions

import (
	"context"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"rollscope/engine/actions"
	"rollscope/engine/kubelet"
	"rollscope/engine/live"
	"rollscope/engine/nodegroup"
	"rollscope/model"
	"rollscope/test/e2e/e2etest"
)

// patience bounds every wait on the cluster. It only bounds a failing test:
// nothing here asserts how fast the cluster is.
const patience = 3 * time.Minute

// The hollow kubelets' images: a pod is ready about 1.5 s after it is
// bound; the slow image takes 4 s, so that a rollout of it is still under
// way when a test pauses or aborts it.
var images = []kubelet.ImageRule{
	{Match: "e2e.example/slow:*", Pull: 200 * time.Millisecond, Start: 200 * time.Millisecond, Ready: 4 * time.Second},
	{Match: "*", Pull: 200 * time.Millisecond, Start: 200 * time.Millisecond, Ready: 1100 * time.Millisecond},
}

// env is the control plane the tests share: an admin client for setting up
// and reading, and the cluster's config for clients that count requests.
type env struct{ *e2etest.Cluster }

// start starts the control plane and two hollow nodes, Ready and
// schedulable.
func start(t *testing.T) *env {
	t.Helper()
	group := e2etest.HollowGroup(2, 300*time.Millisecond, e2etest.Capacity("110", "16", "32Gi"))
	return &env{e2etest.Start(t, e2etest.Setup{Patience: patience, Nodes: live.Nodes{Groups: []nodegroup.Group{group}, Images: images}})}
}

// deployment is one test's deployment web in namespace ns: replicas of
// container app on image img, rolled one pod at a time (maxSurge 1,
// maxUnavailable 0).
func (e *env) deployment(t *testing.T, ns, img string, replicas int32) actions.Target {
	t.Helper()
	ctx := t.Context()
	e.Namespace(t, ns)
	d := e2etest.OneAtATime(e2etest.Deployment(ns, "web", replicas, img))
	if _, err := e.Admin.AppsV1().Deployments(ns).Create(ctx, d, metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
	target := actions.Target{Namespace: ns, Name: "web"}
	e.rolledOut(t, target, image(img))
	return target
}

// rolledOut waits until the deployment's template is what want says and
// it has rolled out everywhere, as `kubectl rollout status` decides it,
// with no old pods left.
func (e *env) rolledOut(t *testing.T, target actions.Target, want template) *appsv1.Deployment {
	t.Helper()
	var last *appsv1.Deployment
	e.Poll(t, target.String()+" rolled out "+want.what, func(ctx context.Context) (bool, string, error) {
		d, err := e.Admin.AppsV1().Deployments(target.Namespace).Get(ctx, target.Name, metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		last = d
		status, done, err := model.RolloutStatus(d, 0)
		if err != nil {
			return false, "", err
		}
		return done && want.ok(d) && d.Status.Replicas == model.DesiredReplicas(d), status, nil
	})
	return last
}

// template is what a test waits for the deployment's template to be.
type template struct {
	what string
	ok   func(*appsv1.Deployment) bool
}

// image is a template running img.
func image(img string) template {
	return template{"on " + img, func(d *appsv1.Deployment) bool { return d.Spec.Template.Spec.Containers[0].Image == img }}
}

// replicaSets are the deployment's ReplicaSets by revision.
func (e *env) replicaSets(ctx context.Context, target actions.Target) (map[int64]*appsv1.ReplicaSet, error) {
	d, err := e.Admin.AppsV1().Deployments(target.Namespace).Get(ctx, target.Name, metav1.GetOptions{})
	if err != nil {
		return nil, err
	}
	rss, err := actions.OwnedReplicaSets(ctx, e.Admin, d)
	if err != nil {
		return nil, err
	}
	out := map[int64]*appsv1.ReplicaSet{}
	for _, rs := range rss {
		if rev, err := model.Revision(rs); err == nil {
			out[rev] = rs
		}
	}
	return out, nil
}

// counted is a client whose writes (every request but GET, LIST and
// WATCH) are counted, and which can run a hook before a write goes out.
type counted struct {
	kubernetes.Interface
	mu     sync.Mutex
	writes []string
	// before, when set, runs before each write is sent.
	before func(method, path string)
}

func (e *env) counting(t *testing.T) *counted {
	t.Helper()
	c := &counted{}
	cfg := rest.CopyConfig(e.CP.AdminConfig())
	cfg.Wrap(func(rt http.RoundTripper) http.RoundTripper {
		return roundTripper(func(r *http.Request) (*http.Response, error) {
			if r.Method != http.MethodGet {
				c.mu.Lock()
				c.writes = append(c.writes, r.Method+" "+r.URL.Path)
				hook := c.before
				c.mu.Unlock()
				if hook != nil {
					hook(r.Method, r.URL.Path)
				}
			}
			return rt.RoundTrip(r)
		})
	})
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	c.Interface = client
	return c
}

type roundTripper func(*http.Request) (*http.Response, error)

func (f roundTripper) RoundTrip(r *http.Request) (*http.Response, error) { return f(r) }

// sent is what the client has written since the last call.
func (c *counted) sent() []string {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := c.writes
	c.writes = nil
	return out
}

// nothingSent fails the test when the client wrote anything.
func (c *counted) nothingSent(t *testing.T, what string) {
	t.Helper()
	if w := c.sent(); len(w) > 0 {
		t.Errorf("%s sent %s, want nothing", what, strings.Join(w, ", "))
	}
}
