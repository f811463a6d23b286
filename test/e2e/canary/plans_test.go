package canary

import (
	"context"
	"fmt"
	"reflect"
	"sync"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/canary"
	"rollscope/engine/live"
	"rollscope/model"
	"rollscope/test/e2e/e2etest"
)

// podWatch counts, from a watch on the namespace's pods, every new pod of
// the canary's template ever created and how many run at once, against the
// most the current step allows.
type podWatch struct {
	mu      sync.Mutex
	hash    string // the canary's pod-template-hash, once known
	allowed int32
	created map[string]bool
	running map[string]bool
	over    []string
}

func (w *podWatch) see(p *corev1.Pod, gone bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.hash == "" || p.Labels[model.PodTemplateHashLabel] != w.hash {
		return
	}
	w.created[p.Name] = true
	if gone || p.DeletionTimestamp != nil || p.Status.Phase == corev1.PodFailed || p.Status.Phase == corev1.PodSucceeded {
		delete(w.running, p.Name)
	} else {
		w.running[p.Name] = true
	}
	if n := int32(len(w.running)); n > w.allowed {
		w.over = append(w.over, fmt.Sprintf("%d new pods running while %d are allowed (%s)", n, w.allowed, p.Name))
	}
}

func (w *podWatch) allow(n int32) {
	w.mu.Lock()
	w.allowed = n
	w.mu.Unlock()
}

func (w *podWatch) counts() (created, running int32, over []string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return int32(len(w.created)), int32(len(w.running)), append([]string(nil), w.over...)
}

func watchPods(t *testing.T, c *cluster, ns, hash string) *podWatch {
	w := &podWatch{hash: hash, created: map[string]bool{}, running: map[string]bool{}}
	f := informers.NewSharedInformerFactoryWithOptions(c.Admin, 0, informers.WithNamespace(ns))
	inf := f.Core().V1().Pods().Informer()
	_, _ = inf.AddEventHandler(cache.ResourceEventHandlerFuncs{
		AddFunc:    func(o any) { w.see(o.(*corev1.Pod), false) },
		UpdateFunc: func(_, o any) { w.see(o.(*corev1.Pod), false) },
		DeleteFunc: func(o any) {
			if p, ok := o.(*corev1.Pod); ok {
				w.see(p, true)
			} else if tomb, ok := o.(cache.DeletedFinalStateUnknown); ok {
				if p, ok := tomb.Obj.(*corev1.Pod); ok {
					w.see(p, true)
				}
			}
		},
	})
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	f.Start(ctx.Done())
	f.WaitForCacheSync(ctx.Done())
	return w
}

// Plans over several sizes and budgets on kube-controller-manager: at each
// hold the new ReplicaSet has exactly the step's pods, ready, and every old
// pod stays available; no new pod beyond the step's is ever created; the
// last step finishes on the Deployment's own strategy, which is then
// exactly what it was, with the canary's annotations gone.
func TestCanaryPlansHoldExactlyOnTheRealDeploymentController(t *testing.T) {
	c := startCluster(t)
	stop, err := live.StartConsoleControllers(t.Context(), c.Admin, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(stop)
	plans := []struct {
		replicas           int32
		surge, unavailable intstr.IntOrString
		minReady           int32
		steps              []string
		want               []int32
	}{
		{10, intstr.FromString("25%"), intstr.FromString("25%"), 0, []string{"1", "30%"}, []int32{1, 3}},
		{7, intstr.FromInt32(0), intstr.FromInt32(1), 1, []string{"2", "50%"}, []int32{2, 4}},
		{5, intstr.FromInt32(1), intstr.FromInt32(0), 0, []string{"20%", "3", "4"}, []int32{1, 3, 4}},
	}
	for i, p := range plans {
		t.Run(fmt.Sprintf("replicas=%d surge=%s unavailable=%s steps=%v", p.replicas, p.surge.String(), p.unavailable.String(), p.steps), func(t *testing.T) {
			ns := fmt.Sprintf("plan-%d", i)
			d := c.web(t, ns, p.replicas, p.surge, p.unavailable, p.minReady)
			original := model.CanaryOriginalOf(d)
			target := canary.Target{Namespace: ns, Name: "web"}
			ask := canary.Ask{Container: "app", Image: newImage, Steps: p.steps, Holds: []string{"pause"}}

			// The canary's template hash is known before it is sent, so
			// the watch sees its very first pod.
			cn, _, err := canary.Plan(d, ask, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			w := watchPods(t, c, ns, cn.Plan.Template)
			w.allow(p.want[0])
			if _, err := canary.Start(t.Context(), c.Admin, target, ask, time.Now()); err != nil {
				t.Fatal(err)
			}
			for k, pods := range p.want {
				c.waitHeld(t, ns, k+1, pods, p.replicas)
				// Held: nothing more happens however long it waits.
				time.Sleep(2 * time.Second)
				c.waitHeld(t, ns, k+1, pods, p.replicas)
				if created, running, _ := w.counts(); created != pods || running != pods {
					t.Fatalf("step %d: %d new pods created, %d running; want exactly %d", k+1, created, running, pods)
				}
				next := p.replicas
				if k+1 < len(p.want) {
					next = p.want[k+1]
				}
				w.allow(next)
				if _, err := canary.Promote(t.Context(), c.Admin, target, k+1, false, time.Now()); err != nil {
					t.Fatal(err)
				}
			}
			var final *appsv1.Deployment
			e2etest.Poll(t, patience, "the rollout complete and the canary cleared", func(ctx context.Context) (bool, string, error) {
				final, err = c.Admin.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
				if err != nil {
					return false, "", err
				}
				s := final.Status
				done := s.ObservedGeneration >= final.Generation && s.UpdatedReplicas == p.replicas && s.AvailableReplicas == p.replicas && s.Replicas == p.replicas
				return done && !model.HasCanaryAnnotations(final), fmt.Sprintf("%d updated, %d available, %d in all; canary annotations %v",
					s.UpdatedReplicas, s.AvailableReplicas, s.Replicas, model.HasCanaryAnnotations(final)), nil
			})
			if got := model.CanaryOriginalOf(final); !reflect.DeepEqual(got, original) {
				t.Errorf("after the canary the deployment has %+v, want it as it was: %+v", got, original)
			}
			created, _, over := w.counts()
			if len(over) > 0 {
				t.Errorf("the pod watch saw more new pods than allowed: %v", over)
			}
			if created != p.replicas {
				t.Errorf("%d new pods were created in all, want exactly %d (one per replica)", created, p.replicas)
			}
		})
	}
}

// waitHeld waits until step k holds: the canary at step k, its new
// ReplicaSet at exactly pods in spec and ready, none of them available, and
// every old pod available.
func (c *cluster) waitHeld(t *testing.T, ns string, k int, pods, replicas int32) {
	t.Helper()
	e2etest.Poll(t, patience, fmt.Sprintf("step %d held at %d new pods", k, pods), func(ctx context.Context) (bool, string, error) {
		d, err := c.Admin.AppsV1().Deployments(ns).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		cn, ok, err := model.ReadCanary(d)
		if err != nil || !ok {
			return false, "no canary", err
		}
		list, err := c.Admin.AppsV1().ReplicaSets(ns).List(ctx, metav1.ListOptions{})
		if err != nil {
			return false, "", err
		}
		var rss []*appsv1.ReplicaSet
		for i := range list.Items {
			rss = append(rss, &list.Items[i])
		}
		newRS := model.FindNewReplicaSet(d, rss)
		if newRS == nil {
			return false, "no new ReplicaSet yet", nil
		}
		var oldAvailable int32
		for _, rs := range rss {
			if rs.UID != newRS.UID {
				oldAvailable += rs.Status.AvailableReplicas
			}
		}
		state := fmt.Sprintf("canary step %d %s; new ReplicaSet spec %d, ready %d, available %d; old available %d",
			cn.State.Step, cn.State.Phase, model.SpecReplicas(newRS), newRS.Status.ReadyReplicas, newRS.Status.AvailableReplicas, oldAvailable)
		if model.SpecReplicas(newRS) > pods {
			t.Fatalf("step %d: the new ReplicaSet grew past the step: %s", k, state)
		}
		return cn.State.Step == k && cn.State.Phase == model.CanaryHolding && model.SpecReplicas(newRS) == pods &&
			newRS.Status.ReadyReplicas == pods && newRS.Status.AvailableReplicas == 0 && oldAvailable == replicas, state, nil
	})
}
