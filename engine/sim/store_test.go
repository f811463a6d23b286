package sim

import (
	"fmt"
	"math/rand"
	"slices"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
)

// The runner's store answers every question client-go's indexer answers,
// with the same answers, through random pod churn: pods created, moved to
// other nodes, adopted by other owners, deleted.
func TestStoreAnswersAsClientGosIndexer(t *testing.T) {
	rnd := rand.New(rand.NewSource(7))
	want := cache.NewIndexer(cache.MetaNamespaceKeyFunc, control.Indexers(control.Pods))
	got := newStore(control.Indexers(control.Pods))
	namespaces := []string{"default", "shop", "kube-system"}
	randomPod := func() *corev1.Pod {
		p := &corev1.Pod{ObjectMeta: metav1.ObjectMeta{
			Namespace: namespaces[rnd.Intn(len(namespaces))],
			Name:      fmt.Sprintf("p%d", rnd.Intn(60)),
		}}
		if n := rnd.Intn(4); n > 0 {
			p.Spec.NodeName = fmt.Sprintf("node-%d", n)
		}
		if o := rnd.Intn(4); o > 0 {
			yes := true
			p.OwnerReferences = []metav1.OwnerReference{{Kind: "ReplicaSet", Name: "rs", UID: types.UID(fmt.Sprint("uid-", o)), Controller: &yes}}
		}
		return p
	}
	for step := 0; step < 3000; step++ {
		p := randomPod()
		if rnd.Intn(4) == 0 {
			_, wantExisted, _ := want.Get(p)
			if err := want.Delete(p); err != nil {
				t.Fatal(err)
			}
			existed, err := got.remove(p)
			if err != nil {
				t.Fatal(err)
			}
			if existed != wantExisted {
				t.Fatalf("step %d: remove reported %v, want %v", step, existed, wantExisted)
			}
		} else {
			wantOld, wantExisted, _ := want.Get(p)
			if err := want.Update(p); err != nil {
				t.Fatal(err)
			}
			old, existed, err := got.put(p)
			if err != nil {
				t.Fatal(err)
			}
			if existed != wantExisted || old != wantOld {
				t.Fatalf("step %d: put reported %v %v, want %v %v", step, old, existed, wantOld, wantExisted)
			}
		}
		same(t, step, "keys", want.ListKeys(), got.ListKeys())
		same(t, step, "list", keysOf(want.List()), keysOf(got.List()))
		for name := range control.Indexers(control.Pods) {
			values := want.ListIndexFuncValues(name)
			same(t, step, "values of "+name, values, got.ListIndexFuncValues(name))
			for _, v := range append(values, "nothing") {
				w, err1 := want.ByIndex(name, v)
				g, err2 := got.ByIndex(name, v)
				if err1 != nil || err2 != nil {
					t.Fatal(err1, err2)
				}
				same(t, step, name+"="+v, keysOf(w), keysOf(g))
				wk, _ := want.IndexKeys(name, v)
				gk, _ := got.IndexKeys(name, v)
				same(t, step, "keys "+name+"="+v, wk, gk)
			}
		}
		for _, ns := range namespaces {
			w, _ := want.Index(cache.NamespaceIndex, &metav1.ObjectMeta{Namespace: ns})
			g, _ := got.Index(cache.NamespaceIndex, &metav1.ObjectMeta{Namespace: ns})
			same(t, step, "namespace "+ns, keysOf(w), keysOf(g))
		}
		k := cache.MetaObjectToName(p).String()
		w, wok, _ := want.GetByKey(k)
		g, gok, _ := got.GetByKey(k)
		if w != g || wok != gok {
			t.Fatalf("step %d: GetByKey(%s) = %v %v, want %v %v", step, k, g, gok, w, wok)
		}
	}
	if _, err := got.ByIndex("no-such-index", "x"); err == nil {
		t.Fatal("an unknown index answered")
	}
}

func keysOf(objs []any) []string {
	out := make([]string, 0, len(objs))
	for _, o := range objs {
		out = append(out, cache.MetaObjectToName(o.(*corev1.Pod)).String())
	}
	return out
}

func same(t *testing.T, step int, what string, want, got []string) {
	t.Helper()
	slices.Sort(want)
	slices.Sort(got)
	if !slices.Equal(want, got) {
		t.Fatalf("step %d: %s: %v, want %v", step, what, got, want)
	}
}

// A pod's update as the runner applies it (the old version looked up, the
// new one filed), on the runner's store and on client-go's indexer.
func BenchmarkStoreUpdatePod(b *testing.B) {
	pods := make([]*corev1.Pod, 10000)
	yes := true
	for i := range pods {
		pods[i] = &corev1.Pod{ObjectMeta: metav1.ObjectMeta{Namespace: "default", Name: fmt.Sprintf("web-%d", i),
			OwnerReferences: []metav1.OwnerReference{{Kind: "ReplicaSet", Name: "web", UID: "uid-web", Controller: &yes}}},
			Spec: corev1.PodSpec{NodeName: fmt.Sprintf("node-%d", i%500)}}
	}
	b.Run("runner", func(b *testing.B) {
		s := newStore(control.Indexers(control.Pods))
		for _, p := range pods {
			_, _, _ = s.put(p)
		}
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			next := *pods[i%len(pods)]
			_, _, _ = s.put(&next)
		}
	})
	b.Run("client-go", func(b *testing.B) {
		ix := cache.NewIndexer(cache.MetaNamespaceKeyFunc, control.Indexers(control.Pods))
		for _, p := range pods {
			_ = ix.Add(p)
		}
		b.ReportAllocs()
		for i := 0; i < b.N; i++ {
			next := *pods[i%len(pods)]
			_, _, _ = ix.Get(&next)
			_ = ix.Update(&next)
		}
	})
}
