package rcpeer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/rest"

	"rollscope/engine/rollingupdate"
)

// errKilled is what every request after the last allowed write gets: the
// process is gone.
var errKilled = errors.New("killed after its last write")

// killingTransport lets budget writes through, then fails every request, as
// a process killed right after its budget-th write would send nothing more.
// A write the server refused (a 409 on a stale read) changed nothing and
// does not count.
type killingTransport struct {
	next   http.RoundTripper
	budget int64 // < 0: no limit
	writes atomic.Int64
	dead   atomic.Bool
}

func (k *killingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if k.dead.Load() {
		return nil, errKilled
	}
	if r.Method == http.MethodGet {
		return k.next.RoundTrip(r)
	}
	if k.budget >= 0 && k.writes.Load() >= k.budget {
		k.dead.Store(true)
		return nil, errKilled
	}
	resp, err := k.next.RoundTrip(r)
	if err == nil && resp.StatusCode < 300 {
		k.writes.Add(1)
	}
	return resp, err
}

// killedClient is an admin client that dies after budget writes.
func (c *cluster) killedClient(t *testing.T, budget int64) (kubernetes.Interface, *killingTransport) {
	t.Helper()
	cfg := rest.CopyConfig(c.CP.AdminConfig())
	cfg.QPS, cfg.Burst = 50, 100
	k := &killingTransport{budget: budget}
	cfg.WrapTransport = func(rt http.RoundTripper) http.RoundTripper { k.next = rt; return k }
	client, err := kubernetes.NewForConfig(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return client, k
}

// updateUntilKilled runs rollscope's update of foo in ns in this process on
// a client that dies after budget writes, and says how many it made.
func (c *cluster) updateUntilKilled(t *testing.T, ns string, budget int64) (int64, error) {
	client, k := c.killedClient(t, budget)
	u := &rollingupdate.Updater{Client: client, Namespace: ns, Now: time.Now}
	req := rollingupdate.Request{Old: "foo", Image: newImage,
		UpdatePeriod: rollingupdate.Duration(time.Second), PollInterval: rollingupdate.Duration(200 * time.Millisecond)}
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	err := rollingupdate.Run(ctx, u, req, time.Minute, rollingupdate.RealClock{}, io.Discard)
	if k.dead.Load() {
		return k.writes.Load(), errKilled
	}
	return k.writes.Load(), err
}

// killedAfterEveryWrite kills rollscope's update right after its Nth
// write, for every N a whole update makes — the prepare, the rollout and
// the rename — and runs the same command again: it always ends with one
// controller named foo at full size on the new image, with the user's
// annotations and labels, owning every pod, and never more than
// replicas + 1 pods ran at once.
func killedAfterEveryWrite(t *testing.T, c *cluster) {
	const replicas = 3
	c.foo(t, "writes", controller{replicas: replicas})
	total, err := c.updateUntilKilled(t, "writes", -1)
	if err != nil {
		t.Fatalf("a whole update: %v", err)
	}
	if total < 15 {
		t.Fatalf("a whole update made only %d writes; the test would cover too little", total)
	}
	t.Logf("a whole update of %d replicas makes %d writes", replicas, total)
	// Six namespaces at a time: each waits mostly on update periods.
	slots := make(chan struct{}, 6)
	var wg sync.WaitGroup
	var mu sync.Mutex
	type result struct {
		n    int64
		fail string
		// phase is where the kill left the update (see killAndRerun).
		phase string
	}
	var results []result
	// Every namespace's foo first, so their pods start together.
	for n := int64(1); n < total; n++ {
		c.createFoo(t, fmt.Sprintf("killed-after-%d", n), controller{replicas: replicas})
	}
	for n := int64(1); n < total; n++ {
		ns := fmt.Sprintf("killed-after-%d", n)
		c.settled(t, ns, replicas)
		r := c.record(t, ns)
		wg.Add(1)
		go func() {
			defer wg.Done()
			slots <- struct{}{}
			defer func() { <-slots }()
			phase, fail := c.killAndRerun(t, ns, n, r, replicas)
			mu.Lock()
			results = append(results, result{n, fail, phase})
			mu.Unlock()
		}()
	}
	wg.Wait()
	phases := map[string]int{}
	for _, r := range results {
		phases[r.phase]++
		if r.fail != "" {
			t.Errorf("killed after write %d of %d: %s", r.n, total, r.fail)
		}
	}
	t.Logf("kill points by where they left the update: %v", phases)
	if phases["rename"] < 2 || phases["rollout"] < 5 || phases["prepare"] < 3 {
		t.Errorf("the kill points left the update %v; want every phase, the rename at least twice", phases)
	}
}

// killAndRerun is one kill point: the update killed after write n, the
// rollscope binary run again, and what the namespace ends with. It returns
// where the kill left the update (prepare, rollout, rename, or finished
// when the update needed fewer writes this time) and what went wrong, or "".
func (c *cluster) killAndRerun(t *testing.T, ns string, n int64, r *recorder, replicas int32) (string, string) {
	made, err := c.updateUntilKilled(t, ns, n)
	if err == nil && made < n {
		return "finished", ""
	}
	if !errors.Is(err, errKilled) || made != n {
		return "", fmt.Sprintf("the first run made %d writes and ended with %v, want killed after %d", made, err, n)
	}
	phase := "prepare"
	if s, err := c.read(context.Background(), ns); err == nil {
		phase = phaseOf(s)
	}
	again := c.run(t, rollscope, ns, "--image", newImage)
	if again.err != nil {
		return phase, fmt.Sprintf("run again: %v\n%s%s", again.err, again.stdout, again.stderr)
	}
	var last state
	deadline := time.Now().Add(patience)
	for ; time.Now().Before(deadline); time.Sleep(200 * time.Millisecond) {
		s, err := c.read(context.Background(), ns)
		if err != nil {
			continue
		}
		last = s
		if problem := endState(s, replicas); problem == "" {
			if peak := r.peak(); peak > int(replicas)+1 {
				return phase, fmt.Sprintf("%d pods ran at once, more than replicas + 1 = %d", peak, replicas+1)
			}
			return phase, ""
		}
	}
	return phase, fmt.Sprintf("%s; the rerun printed:\n%s", endState(last, replicas), again.stdout)
}

// phaseOf reads where an update stands from the objects: the rename once
// the original foo is gone, the rollout once a next controller exists.
func phaseOf(s state) string {
	original := false
	for _, rc := range s.rcs {
		if rc.Name == "foo" && rc.Annotations[rollingupdate.RenamingAnnotation] == "" {
			original = true
		}
	}
	switch {
	case !original:
		return "rename"
	case len(s.rcs) > 1:
		return "rollout"
	}
	return "prepare"
}

// endState says what keeps s from the end the update must reach, or "".
func endState(s state, replicas int32) string {
	if len(s.rcs) != 1 || s.rcs[0].Name != "foo" {
		return "not one controller named foo: " + s.String()
	}
	rc := s.rcs[0]
	switch {
	case *rc.Spec.Replicas != replicas || rc.Status.ReadyReplicas != replicas || rc.Status.ObservedGeneration < rc.Generation:
		return "foo not at full size and ready: " + s.String()
	case rc.Spec.Template.Spec.Containers[0].Image != newImage:
		return "foo not on the new image: " + s.String()
	case fmt.Sprint(rc.Annotations) != fmt.Sprint(userAnnotations):
		return fmt.Sprintf("foo's annotations are %v, want the user's %v", rc.Annotations, userAnnotations)
	case fmt.Sprint(rc.Labels) != fmt.Sprint(userLabels):
		return fmt.Sprintf("foo's labels are %v, want the user's %v", rc.Labels, userLabels)
	case int32(len(s.pods)) != replicas:
		return "not exactly the replicas' pods: " + s.String()
	}
	for _, p := range s.pods {
		if o := metav1.GetControllerOf(&p); o == nil || o.UID != rc.UID || p.DeletionTimestamp != nil || p.Spec.Containers[0].Image != newImage {
			return "a pod not foo's, orphaned, terminating or on the old image: " + s.String()
		}
	}
	return ""
}
