package rcpeer

import (
	"context"
	"fmt"
	"regexp"
	"sort"
	"strings"
	"sync"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/watch"
)

// state is what a namespace holds at one moment.
type state struct {
	rcs  []corev1.ReplicationController
	pods []corev1.Pod
}

func (c *cluster) read(ctx context.Context, ns string) (state, error) {
	rcs, err := c.Admin.CoreV1().ReplicationControllers(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return state{}, err
	}
	pods, err := c.Admin.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		return state{}, err
	}
	return state{rcs: rcs.Items, pods: pods.Items}, nil
}

func (s state) String() string {
	var b strings.Builder
	for _, rc := range s.rcs {
		fmt.Fprintf(&b, "rc %s size %d ready %d annotations %v; ", rc.Name, *rc.Spec.Replicas, rc.Status.ReadyReplicas, rc.Annotations)
	}
	for _, p := range s.pods {
		owner := "none"
		if o := metav1.GetControllerOf(&p); o != nil {
			owner = o.Name
		}
		fmt.Fprintf(&b, "pod %s owner %s terminating %v; ", p.Name, owner, p.DeletionTimestamp != nil)
	}
	return b.String()
}

// recorder watches a namespace from before a tool runs: every write to a
// controller, as the scale steps it makes, and the most pods that ran at
// once.
type recorder struct {
	mu sync.Mutex
	// oldUID is foo's uid at the start: "old" in the steps; another
	// controller named foo is "renamed", any other "next".
	oldUID   types.UID
	replicas map[types.UID]int32
	// steps are "<role> <replicas>" for every change of spec.replicas,
	// and for the next controller's creation.
	steps []string
	// rcWrites counts every change to a controller seen.
	rcWrites int
	sizes    map[string]int32
	live     map[string]bool
	mostPods int
}

func (c *cluster) record(t *testing.T, ns string) *recorder {
	t.Helper()
	ctx, stop := context.WithCancel(context.Background())
	t.Cleanup(stop)
	r := &recorder{replicas: map[types.UID]int32{}, sizes: map[string]int32{}, live: map[string]bool{}}
	rcs, err := c.Admin.CoreV1().ReplicationControllers(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, rc := range rcs.Items {
		if rc.Name == "foo" {
			r.oldUID = rc.UID
		}
		r.replicas[rc.UID] = *rc.Spec.Replicas
		r.sizes[rc.Name] = *rc.Spec.Replicas
	}
	rcWatch, err := c.Admin.CoreV1().ReplicationControllers(ns).Watch(ctx, metav1.ListOptions{ResourceVersion: rcs.ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	pods, err := c.Admin.CoreV1().Pods(ns).List(ctx, metav1.ListOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range pods.Items {
		r.pod(watch.Added, &p)
	}
	podWatch, err := c.Admin.CoreV1().Pods(ns).Watch(ctx, metav1.ListOptions{ResourceVersion: pods.ResourceVersion})
	if err != nil {
		t.Fatal(err)
	}
	go func() {
		for e := range rcWatch.ResultChan() {
			if rc, ok := e.Object.(*corev1.ReplicationController); ok {
				r.rc(e.Type, rc)
			}
		}
	}()
	go func() {
		for e := range podWatch.ResultChan() {
			if p, ok := e.Object.(*corev1.Pod); ok {
				r.pod(e.Type, p)
			}
		}
	}()
	return r
}

func (r *recorder) rc(typ watch.EventType, rc *corev1.ReplicationController) {
	r.mu.Lock()
	defer r.mu.Unlock()
	role := "next"
	switch {
	case rc.UID == r.oldUID:
		role = "old"
	case rc.Name == "foo":
		role = "renamed"
	}
	if typ == watch.Deleted {
		delete(r.sizes, rc.Name)
		r.rcWrites++
		return
	}
	if typ != watch.Added && typ != watch.Modified {
		return
	}
	// Once foo has settled the replication controller has nothing to
	// write, so every event from here on is some tool's doing.
	r.rcWrites++
	n := *rc.Spec.Replicas
	if last, seen := r.replicas[rc.UID]; !seen || last != n {
		r.steps = append(r.steps, fmt.Sprintf("%s %d", role, n))
	}
	r.replicas[rc.UID] = n
	r.sizes[rc.Name] = n
}

func (r *recorder) pod(typ watch.EventType, p *corev1.Pod) {
	r.mu.Lock()
	defer r.mu.Unlock()
	running := typ != watch.Deleted && p.DeletionTimestamp == nil && p.Status.Phase != corev1.PodSucceeded && p.Status.Phase != corev1.PodFailed
	if running {
		r.live[p.Name] = true
	} else {
		delete(r.live, p.Name)
	}
	r.mostPods = max(r.mostPods, len(r.live))
}

// at reports whether foo (the original) and a next controller have these
// sizes now.
func (r *recorder) at(old, next int32) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.sizes["foo"] != old {
		return false
	}
	for name, n := range r.sizes {
		if strings.HasPrefix(name, "foo-") && n == next {
			return true
		}
	}
	return false
}

// scaleSteps are the steps of the old and next controllers, in order: the
// rollout itself. The renamed controller's are a deliberate difference (see
// deliberate.go) and are compared through the final objects.
func (r *recorder) scaleSteps() []string {
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []string
	for _, s := range r.steps {
		if !strings.HasPrefix(s, "renamed ") {
			out = append(out, s)
		}
	}
	return out
}

func (r *recorder) peak() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.mostPods
}

func (r *recorder) writes() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.rcWrites
}

// hashes are kubectl's generated values: 32 hex digits of an MD5, which no
// two runs share (kubectl hashes the object's uid and resourceVersion).
var hashes = regexp.MustCompile(`[0-9a-f]{32}`)

func normalize(s string) string { return hashes.ReplaceAllString(s, "<hash>") }

func normalizeMap(m map[string]string) map[string]string {
	if len(m) == 0 {
		return nil
	}
	out := map[string]string{}
	for k, v := range m {
		out[k] = normalize(v)
	}
	return out
}

// finalRC is a controller as compared between the tools.
type finalRC struct {
	Name           string
	Replicas       int32
	Labels         map[string]string
	Annotations    map[string]string
	Selector       map[string]string
	TemplateLabels map[string]string
	Containers     []string
}

// finals are the controllers and pods a case ends with, normalized: pods
// as "<owner> <labels> <images>" with how many are alike.
type finals struct {
	RCs  []finalRC
	Pods map[string]int
}

func finalsOf(s state) finals {
	f := finals{Pods: map[string]int{}}
	for _, rc := range s.rcs {
		var cs []string
		for _, c := range rc.Spec.Template.Spec.Containers {
			cs = append(cs, c.Name+"="+c.Image+"/"+string(c.ImagePullPolicy))
		}
		f.RCs = append(f.RCs, finalRC{Name: normalize(rc.Name), Replicas: *rc.Spec.Replicas, Labels: normalizeMap(rc.Labels),
			Annotations: normalizeMap(rc.Annotations), Selector: normalizeMap(rc.Spec.Selector),
			TemplateLabels: normalizeMap(rc.Spec.Template.Labels), Containers: cs})
	}
	sort.Slice(f.RCs, func(i, j int) bool { return f.RCs[i].Name < f.RCs[j].Name })
	for _, p := range s.pods {
		owner := "orphan"
		if o := metav1.GetControllerOf(&p); o != nil {
			owner = normalize(o.Name)
		}
		var images []string
		for _, c := range p.Spec.Containers {
			images = append(images, c.Image)
		}
		labels := normalizeMap(p.Labels)
		keys := make([]string, 0, len(labels))
		for k, v := range labels {
			keys = append(keys, k+"="+v)
		}
		sort.Strings(keys)
		f.Pods[fmt.Sprintf("%s {%s} %v terminating=%v", owner, strings.Join(keys, ","), images, p.DeletionTimestamp != nil)]++
	}
	return f
}
