package fidelity

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"sort"
	"strings"
	"sync"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/util/wait"
	"k8s.io/client-go/informers"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/cache"

	"rollscope/model"
)

// PlayLive plays a scenario on a real cluster with the operator's command,
// `rollscope simulate -f FILE --kubeconfig K --format jsonl`, which makes a
// fresh namespace and hollow nodes, plays the scenario in real time, and
// deletes both at the end. The objects at the end are recorded by the
// test's own watch (client) when the trace ends, once the watch has caught
// up with the trace's last lines and before the namespace goes.
//
// PlayLive returns when the trace has ended; the command is then still
// removing its namespace, which takes a real control plane seconds.
// finished waits for that and reports a failed exit; ctx must outlive it.
func PlayLive(ctx context.Context, bin string, s *Scenario, kubeconfig string, client kubernetes.Interface) (run *Run, finished func() error, err error) {
	file := s.File
	w, err := watchDeployments(ctx, client)
	if err != nil {
		return nil, nil, err
	}
	defer w.stop()

	cmd := exec.CommandContext(ctx, bin, "simulate", "-f", file, "--kubeconfig", kubeconfig, "--format", "jsonl")
	// Read only once Wait has returned, when nothing writes to it any more.
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, nil, fmt.Errorf("rollscope simulate --kubeconfig: %w", err)
	}
	if err := cmd.Start(); err != nil {
		return nil, nil, fmt.Errorf("starting rollscope simulate --kubeconfig: %w", err)
	}
	finished = func() error {
		_, _ = io.Copy(io.Discard, stdout)
		if err := cmd.Wait(); err != nil {
			return fmt.Errorf("rollscope simulate -f %s --kubeconfig: %w: %s", file, err, bytes.TrimSpace(stderr.Bytes()))
		}
		return nil
	}
	var out bytes.Buffer
	sc := bufio.NewScanner(stdout)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	for sc.Scan() {
		out.Write(sc.Bytes())
		out.WriteByte('\n')
		if !bytes.Contains(sc.Bytes(), []byte(`"type":"end"`)) {
			continue
		}
		tr, err := ParseTrace("live", out.Bytes())
		if err != nil {
			return nil, nil, errors.Join(err, finished())
		}
		f, err := w.finalFor(ctx, tr, runNamespacePrefix+s.Name+"-")
		if err != nil {
			return nil, nil, errors.Join(err, finished())
		}
		return &Run{Trace: tr, Final: f}, finished, nil
	}
	if err := finished(); err != nil {
		return nil, nil, err
	}
	return nil, nil, fmt.Errorf("rollscope simulate -f %s --kubeconfig: the trace has no end line (%d bytes of trace; stderr: %s)", file, out.Len(), bytes.TrimSpace(stderr.Bytes()))
}

// deploymentWatch keeps the last state of every Deployment and ReplicaSet
// before its deletion began: the run deletes its namespace at the end.
type deploymentWatch struct {
	mu          sync.Mutex
	deployments map[string]*appsv1.Deployment // by namespace/name
	rss         map[string]*appsv1.ReplicaSet
	cancel      context.CancelFunc
}

func watchDeployments(ctx context.Context, client kubernetes.Interface) (*deploymentWatch, error) {
	w := &deploymentWatch{deployments: map[string]*appsv1.Deployment{}, rss: map[string]*appsv1.ReplicaSet{}}
	ctx, w.cancel = context.WithCancel(ctx)
	f := informers.NewSharedInformerFactory(client, 0)
	keep := func(obj any) {
		w.mu.Lock()
		defer w.mu.Unlock()
		switch o := obj.(type) {
		case *appsv1.Deployment:
			if o.DeletionTimestamp == nil {
				w.deployments[o.Namespace+"/"+o.Name] = o
			}
		case *appsv1.ReplicaSet:
			if o.DeletionTimestamp == nil {
				w.rss[o.Namespace+"/"+o.Name] = o
			}
		}
	}
	h := cache.ResourceEventHandlerFuncs{AddFunc: keep, UpdateFunc: func(_, o any) { keep(o) }}
	if _, err := f.Apps().V1().Deployments().Informer().AddEventHandler(h); err != nil {
		return nil, fmt.Errorf("watching Deployments: %w", err)
	}
	if _, err := f.Apps().V1().ReplicaSets().Informer().AddEventHandler(h); err != nil {
		return nil, fmt.Errorf("watching ReplicaSets: %w", err)
	}
	f.Start(ctx.Done())
	for typ, ok := range f.WaitForCacheSync(ctx.Done()) {
		if !ok {
			w.cancel()
			return nil, fmt.Errorf("watching %v: the cache never synced", typ)
		}
	}
	return w, nil
}

func (w *deploymentWatch) stop() { w.cancel() }

// finalFor waits until the watch has seen the states of the trace's last
// lines for its Deployment and ReplicaSets, and returns them as objects.
func (w *deploymentWatch) finalFor(ctx context.Context, tr *Trace, prefix string) (Final, error) {
	name := tr.deploymentName()
	ns := tr.namespace()
	r := newReplay(name)
	for _, l := range tr.Lines {
		r.apply(l)
	}
	want := lineKeys(r.dep, r.replicaSets())
	var got string
	var f Final
	err := wait.PollUntilContextTimeout(ctx, 50*time.Millisecond, 30*time.Second, true, func(context.Context) (bool, error) {
		w.mu.Lock()
		defer w.mu.Unlock()
		ns = w.runNamespace(name, prefix, ns)
		d, ok := w.deployments[ns+"/"+name]
		if !ok {
			got = "no deployment"
			return false, nil
		}
		var rss []appsv1.ReplicaSet
		for _, rs := range w.rss {
			if rs.Namespace == ns {
				rss = append(rss, *rs)
			}
		}
		f = finalOf(d, rss)
		got = objectKeys(d, f)
		return got == want, nil
	})
	if err != nil {
		return Final{}, fmt.Errorf("the API never showed the live trace's final state of deployment %s/%s (within 30 s): trace %s, API %s", ns, name, want, got)
	}
	return f, nil
}

// runNamespacePrefix starts the name of the fresh namespace of each live
// run: rollscope-sim-<scenario>-<id> (see `rollscope simulate --help`).
const runNamespacePrefix = "rollscope-sim-"

// runNamespace finds the namespace the run made: the one named for the
// scenario that holds the deployment, or else the one the trace names.
// The previous run's namespace, which may still be going, is another
// scenario's. w.mu is held.
func (w *deploymentWatch) runNamespace(deployment, prefix, traced string) string {
	var found []string
	for key := range w.deployments {
		ns, name, _ := strings.Cut(key, "/")
		if name == deployment && strings.HasPrefix(ns, prefix) {
			found = append(found, ns)
		}
	}
	if len(found) == 1 {
		return found[0]
	}
	return traced
}

// lineKeys and objectKeys put the trace's final lines and the API's
// objects in the same words, to tell when the watch has caught up.
func lineKeys(d Line, rss []Line) string {
	keys := []string{fmt.Sprintf("deployment spec %d available %d updated %d %s", d.Spec, d.Available, d.Updated, d.Progressing)}
	for _, l := range rss {
		keys = append(keys, fmt.Sprintf("%s spec %d available %d", l.Name, l.Spec, l.Available))
	}
	sort.Strings(keys[1:])
	return strings.Join(keys, "; ")
}

func objectKeys(d *appsv1.Deployment, f Final) string {
	progressing := ""
	if c := model.GetDeploymentCondition(d.Status, appsv1.DeploymentProgressing); c != nil {
		progressing = c.Reason
	}
	keys := []string{fmt.Sprintf("deployment spec %d available %d updated %d %s", model.DesiredReplicas(d), d.Status.AvailableReplicas, d.Status.UpdatedReplicas, progressing)}
	for _, rs := range f.ReplicaSets {
		keys = append(keys, fmt.Sprintf("%s spec %d available %d", rs.Name, rs.Spec, rs.Available))
	}
	sort.Strings(keys[1:])
	return strings.Join(keys, "; ")
}
