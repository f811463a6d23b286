package memapi_test

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/tools/cache"
)

// recorder collects what an informer's handlers were told.
type recorder struct {
	mu  sync.Mutex
	log []string
}

func (r *recorder) add(s string) {
	r.mu.Lock()
	r.log = append(r.log, s)
	r.mu.Unlock()
}

func (r *recorder) snapshot() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return slices.Clone(r.log)
}

func (r *recorder) handler() cache.ResourceEventHandler {
	name := func(obj any) string {
		if d, ok := obj.(cache.DeletedFinalStateUnknown); ok {
			obj = d.Obj
		}
		return obj.(metav1.Object).GetName()
	}
	return cache.ResourceEventHandlerFuncs{
		AddFunc:    func(obj any) { r.add("add " + name(obj)) },
		UpdateFunc: func(_, obj any) { r.add("update " + name(obj)) },
		DeleteFunc: func(obj any) { r.add("delete " + name(obj)) },
	}
}

// eventually polls cond; the deadline only stops a broken test from hanging.
func eventually(t *testing.T, what string, cond func() bool) {
	t.Helper()
	err := wait.PollUntilContextTimeout(context.Background(), time.Millisecond, hangGuard, true, func(context.Context) (bool, error) { return cond(), nil })
	if err != nil {
		t.Fatalf("never happened: %s", what)
	}
}

func TestSharedInformersWorkUnchanged(t *testing.T) {
	f := newFixture(t)
	must(f.client.AppsV1().Deployments("default").Create(ctx, deployment("before", 1), metav1.CreateOptions{}))(t)

	factory := informers.NewSharedInformerFactory(f.client, 0)
	pods, rss, deps := factory.Core().V1().Pods(), factory.Apps().V1().ReplicaSets(), factory.Apps().V1().Deployments()
	var podEvents, depEvents recorder
	_, err := pods.Informer().AddEventHandler(podEvents.handler())
	noErr(t, err)
	_, err = deps.Informer().AddEventHandler(depEvents.handler())
	noErr(t, err)
	rss.Informer()
	stop := make(chan struct{})
	defer func() { close(stop); factory.Shutdown() }()
	factory.Start(stop)
	for typ, ok := range factory.WaitForCacheSync(stop) {
		if !ok {
			t.Fatalf("%v never synced", typ)
		}
	}

	must(f.client.AppsV1().Deployments("default").Create(ctx, deployment("web", 1), metav1.CreateOptions{}))(t)
	must(f.client.AppsV1().ReplicaSets("default").Create(ctx, replicaSet("web-1", 1), metav1.CreateOptions{}))(t)
	p := must(f.client.CoreV1().Pods("default").Create(ctx, pod("p", "web"), metav1.CreateOptions{}))(t)
	p.Labels["version"] = "2"
	must(f.client.CoreV1().Pods("default").Update(ctx, p, metav1.UpdateOptions{}))(t)
	noErr(t, f.client.CoreV1().Pods("default").Delete(ctx, "p", metav1.DeleteOptions{}))

	eventually(t, "pod handler saw add, update, delete", func() bool {
		return slices.Equal(podEvents.snapshot(), []string{"add p", "update p", "delete p"})
	})
	eventually(t, "deployment handler saw both deployments", func() bool {
		return slices.Equal(depEvents.snapshot(), []string{"add before", "add web"})
	})
	eventually(t, "listers caught up", func() bool {
		rs, err := rss.Lister().ReplicaSets("default").Get("web-1")
		d, _ := deps.Lister().List(labels.Everything())
		ps, _ := pods.Lister().List(labels.Everything())
		return err == nil && rs.Spec.Template.Spec.RestartPolicy == corev1.RestartPolicyAlways && len(d) == 2 && len(ps) == 0
	})
}

func TestFilteredInformer(t *testing.T) {
	f := newFixture(t)
	must(f.client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "team"}}, metav1.CreateOptions{}))(t)
	create := func(ns, name, app string) *corev1.Pod {
		p := pod(name, app)
		p.Namespace = ns
		return must(f.client.CoreV1().Pods(ns).Create(ctx, p, metav1.CreateOptions{}))(t)
	}
	create("team", "early", "web")

	factory := informers.NewSharedInformerFactoryWithOptions(f.client, 0, informers.WithNamespace("team"),
		informers.WithTweakListOptions(func(o *metav1.ListOptions) { o.LabelSelector = "app=web" }))
	inf := factory.Core().V1().Pods()
	var events recorder
	_, err := inf.Informer().AddEventHandler(events.handler())
	noErr(t, err)
	stop := make(chan struct{})
	defer func() { close(stop); factory.Shutdown() }()
	factory.Start(stop)
	factory.WaitForCacheSync(stop)

	create("default", "elsewhere", "web")
	create("team", "db", "db")
	moving := create("team", "moving", "web")
	moving.Labels["app"] = "retired"
	must(f.client.CoreV1().Pods("team").Update(ctx, moving, metav1.UpdateOptions{}))(t)
	create("team", "late", "web")

	want := []string{"add early", "add moving", "delete moving", "add late"}
	eventually(t, fmt.Sprintf("filtered informer saw %v", want), func() bool { return slices.Equal(events.snapshot(), want) })
	names := func() []string {
		ps, _ := inf.Lister().List(labels.Everything())
		var out []string
		for _, p := range ps {
			out = append(out, p.Name)
		}
		slices.Sort(out)
		return out
	}
	if got := names(); !slices.Equal(got, []string{"early", "late"}) {
		t.Fatalf("filtered lister holds %v", got)
	}
}
