package watch_test

import (
	"strconv"
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/kube/memapi"
	"rollscope/kube/watch"
	"rollscope/model/cluster"
)

// A fleet of every namespace watches pods only where the console asks: none
// at first, then each namespace asked for, then every namespace — and the
// watch status says at each moment whose pods the picture holds, so that no
// row reads a namespace it does not hold as having none.
func TestPodsComeOnlyFromTheNamespacesAskedFor(t *testing.T) {
	client := memapi.New(memapi.Options{}).Client()
	for _, ns := range []string{"shop", "pay", "ads"} {
		must(client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}))(t)
		must(client.CoreV1().Pods(ns).Create(ctx, pod(ns, "web-1"), metav1.CreateOptions{}))(t)
	}
	ref := func(ns string) cluster.ObjectRef { return cluster.ObjectRef{Kind: "Pod", Namespace: ns, Name: "web-1"} }
	status := func(r *received) cluster.WatchStatus {
		b, _ := r.snapshot()
		if len(b) == 0 {
			return cluster.WatchStatus{}
		}
		return b[len(b)-1].Watch
	}

	pods := watch.NewPodNamespaces()
	r := run(t, client, watch.Scope{}, watch.Options{Pods: pods})
	eventually(t, "the synced first batch", func() bool { return status(r).Synced })
	if w := status(r); !w.PodsNarrowed || w.PodNamespaces != "" || w.HoldsPods("shop") {
		t.Fatalf("before any namespace is asked for the status is %+v, want pods narrowed to none", w)
	}
	for _, ns := range []string{"shop", "pay", "ads"} {
		if o, _ := r.find(ref(ns)); o != nil {
			t.Errorf("pod %s/web-1 came before its namespace was asked for", ns)
		}
	}

	pods.Want(false, "shop")
	eventually(t, "shop's pod, and the status holding shop", func() bool {
		o, _ := r.find(ref("shop"))
		return o != nil && status(r).PodNamespaces == "shop"
	})
	if w := status(r); !w.HoldsPods("shop") || w.HoldsPods("pay") {
		t.Errorf("status %+v, want shop's pods held and pay's not", w)
	}
	// A pod created in a namespace being watched arrives; one elsewhere does not.
	must(client.CoreV1().Pods("shop").Create(ctx, pod("shop", "web-2"), metav1.CreateOptions{}))(t)
	must(client.CoreV1().Pods("pay").Create(ctx, pod("pay", "web-2"), metav1.CreateOptions{}))(t)
	eventually(t, "shop's new pod", func() bool {
		o, _ := r.find(cluster.ObjectRef{Kind: "Pod", Namespace: "shop", Name: "web-2"})
		return o != nil
	})
	if o, _ := r.find(cluster.ObjectRef{Kind: "Pod", Namespace: "pay", Name: "web-2"}); o != nil {
		t.Error("a pod of pay, which was not asked for, came")
	}

	// What was asked for stays: a narrower wish changes nothing.
	pods.Want(false, "ads", "shop")
	eventually(t, "ads's pod, and both held", func() bool {
		o, _ := r.find(ref("ads"))
		return o != nil && status(r).PodNamespaces == "ads,shop"
	})

	pods.Want(true)
	eventually(t, "every pod, and the status no longer narrowed", func() bool {
		o, _ := r.find(ref("pay"))
		w := status(r)
		return o != nil && !w.PodsNarrowed && w.Synced && w.HoldsPods("pay")
	})
	// The namespaces' own watches gave way to the one of every namespace
	// without their pods leaving the picture.
	for _, ns := range []string{"shop", "ads", "pay"} {
		if o, deleted := r.find(ref(ns)); o == nil || deleted {
			t.Errorf("pod %s/web-1 is not in the picture after every namespace was asked for", ns)
		}
	}
	if err := client.CoreV1().Pods("shop").Delete(ctx, "web-1", metav1.DeleteOptions{GracePeriodSeconds: new(int64)}); err != nil {
		t.Fatal(err)
	}
	eventually(t, "shop's deleted pod gone", func() bool { _, gone := r.find(ref("shop")); return gone })
}

// A console of one namespace watches every pod in it, handle or not: the
// handle chooses among namespaces.
func TestEveryPodInScopeWithoutTheHandle(t *testing.T) {
	client := memapi.New(memapi.Options{}).Client()
	must(client.CoreV1().Pods("default").Create(ctx, pod("default", "web-1"), metav1.CreateOptions{}))(t)
	r := run(t, client, watch.Scope{Namespace: "default"}, watch.Options{Pods: watch.NewPodNamespaces()})
	eventually(t, "the pod", func() bool {
		o, _ := r.find(cluster.ObjectRef{Kind: "Pod", Namespace: "default", Name: "web-1"})
		return o != nil
	})
	b, _ := r.snapshot()
	if w := b[len(b)-1].Watch; w.PodsNarrowed {
		t.Errorf("a namespace's console narrowed its pods: %+v", w)
	}
}

// With a pod detail's handle too, the fleet hears pods' Warnings from the
// start — they say where to look — and the other objects' events, which
// only a workload's timeline shows, with their namespace's pods: a
// workload's page opened from the fleet asks for its namespace's, and its
// timeline has them; the namespace's pods are not held until they have
// come. Asked for every pod later, the events stay through the change of
// watches.
func TestWorkloadsEventsComeWithTheirNamespacesPods(t *testing.T) {
	client := memapi.New(memapi.Options{}).Client()
	scaled := eventAbout(client, t, "web.1", "Deployment", "web", corev1.EventTypeNormal, "ScalingReplicaSet")
	backOff := eventAbout(client, t, "web-7b-a.1", "Pod", "web-7b-a", corev1.EventTypeWarning, "BackOff")
	must(client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: "pay"}}, metav1.CreateOptions{}))(t)
	elsewhere := cluster.ObjectRef{Kind: "Event", Namespace: "pay", Name: "api.1"}
	must(client.CoreV1().Events("pay").Create(ctx, &corev1.Event{ObjectMeta: metav1.ObjectMeta{Namespace: "pay", Name: "api.1"},
		InvolvedObject: corev1.ObjectReference{Kind: "Deployment", Namespace: "pay", Name: "api"},
		Type:           corev1.EventTypeNormal, Reason: "ScalingReplicaSet"}, metav1.CreateOptions{}))(t)

	pods := watch.NewPodNamespaces()
	r := run(t, client, watch.Scope{}, watch.Options{Pods: pods, PodEvents: watch.NewPodEvents()})
	eventually(t, "the pod's Warning", func() bool { o, _ := r.find(backOff); return o != nil })
	if o, _ := r.find(scaled); o != nil {
		t.Fatal("a Deployment's Normal event came before its namespace's pods were asked for")
	}
	pods.Want(false, "default")
	eventually(t, "the Deployment's event, with default's pods held", func() bool {
		b, _ := r.snapshot()
		o, _ := r.find(scaled)
		return o != nil && len(b) > 0 && b[len(b)-1].Watch.HoldsPods("default")
	})
	if o, _ := r.find(elsewhere); o != nil {
		t.Error("pay's Deployment's event came with default's pods")
	}
	pods.Want(true)
	eventually(t, "pay's event", func() bool { o, _ := r.find(elsewhere); return o != nil })
	b, _ := r.snapshot()
	for _, batch := range b {
		for _, gone := range batch.Deleted {
			if gone == scaled {
				t.Fatal("default's Deployment's event left the picture as every namespace's watches took over")
			}
		}
	}
}

// Past a handful of namespaces, each a connection of its own, the pods of
// every namespace come in one watch.
func TestManyNamespacesAreWatchedAsOne(t *testing.T) {
	client := memapi.New(memapi.Options{}).Client()
	var many []string
	for i := range 9 {
		ns := "team-" + strconv.Itoa(i)
		many = append(many, ns)
		must(client.CoreV1().Namespaces().Create(ctx, &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: ns}}, metav1.CreateOptions{}))(t)
	}
	must(client.CoreV1().Pods("default").Create(ctx, pod("default", "web-1"), metav1.CreateOptions{}))(t)
	pods := watch.NewPodNamespaces()
	r := run(t, client, watch.Scope{}, watch.Options{Pods: pods})
	pods.Want(false, many[:8]...)
	eventually(t, "eight namespaces held one by one", func() bool {
		b, _ := r.snapshot()
		return len(b) > 0 && b[len(b)-1].Watch.PodsNarrowed && len(strings.Split(b[len(b)-1].Watch.PodNamespaces, ",")) == 8
	})
	pods.Want(false, many[8])
	eventually(t, "every pod, default's among them", func() bool {
		o, _ := r.find(cluster.ObjectRef{Kind: "Pod", Namespace: "default", Name: "web-1"})
		b, _ := r.snapshot()
		return o != nil && !b[len(b)-1].Watch.PodsNarrowed
	})
}
