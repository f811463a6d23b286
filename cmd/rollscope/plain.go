package main

import (
	"context"
	"fmt"
	"io"
	"sort"
	"strings"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/watch"

	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/kube/memapi"
	kubewatch "rollscope/kube/watch"
	"rollscope/model"
)

// runPlain runs the embedded cluster in real time and prints a status line
// for each deployment whenever it changes: the console for a pipe or a log.
func runPlain(ctx context.Context, out io.Writer, f *rootFlags, sc *scenario.Scenario) error {
	ctx, stop := interruptible(ctx)
	defer stop()
	if f.until > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, time.Duration(float64(f.until)/f.speed))
		defer cancel()
	}

	clock := sim.NewClock(epoch)
	api := memapi.New(memapi.Options{Clock: clock, Seed: seedOf(sc, f.seed)})
	st := &statusPrinter{out: out, last: map[string]string{}}
	cl, err := embedded.Start(ctx, api, clock, sc, embedded.Options{
		Seed: f.seed,
		OnAction: func(now time.Time, kind, target, result string) {
			fmt.Fprintf(out, "[%7.1fs] action %s %s: %s\n", now.Sub(epoch).Seconds(), kind, target, result)
		},
	})
	if err != nil {
		return usageError{err}
	}
	st.listers = cl.Runner.Listers().Deployments
	cl.Runner.Observe(st.observe)
	fmt.Fprintf(out, "rollscope: embedded cluster, scenario %q at %gx real time (Ctrl-C to stop)\n", sc.Name, f.speed)
	clock.SetSpeed(f.speed)
	cl.Runner.RunRealtime(ctx)
	return nil
}

// statusPrinter prints one line per deployment when its rollout status changes.
type statusPrinter struct {
	out     io.Writer
	listers interface {
		List(labels.Selector) ([]*appsv1.Deployment, error)
	}
	last map[string]string
}

func (s *statusPrinter) observe(now time.Time, ev watch.Event) {
	switch ev.Object.(type) {
	case *appsv1.Deployment, *appsv1.ReplicaSet:
	default:
		return
	}
	if s.listers == nil {
		return
	}
	ds, _ := s.listers.List(labels.Everything())
	sort.Slice(ds, func(i, j int) bool { return ds[i].Name < ds[j].Name })
	for _, d := range ds {
		line := statusLine(d)
		if s.last[d.Name] == line {
			continue
		}
		s.last[d.Name] = line
		fmt.Fprintf(s.out, "[%7.1fs] %s\n", now.Sub(epoch).Seconds(), line)
	}
}

func statusLine(d *appsv1.Deployment) string {
	msg, _, err := model.RolloutStatus(d, 0)
	if err != nil {
		msg = err.Error()
	}
	var spec int32 = 1
	if d.Spec.Replicas != nil {
		spec = *d.Spec.Replicas
	}
	paused := ""
	if d.Spec.Paused {
		paused = " PAUSED"
	}
	return fmt.Sprintf("deployment/%s%s %d desired · %d total · %d updated · %d available — %s",
		d.Name, paused, spec, d.Status.Replicas, d.Status.UpdatedReplicas, d.Status.AvailableReplicas, strings.TrimSpace(msg))
}

// runLivePlain prints the status lines for a live cluster, from the same
// watch bridge and model the console uses.
func runLivePlain(ctx context.Context, out io.Writer, f *rootFlags, name string) error {
	quietClientGo()
	conn, err := f.conn.Connect(ctx)
	if err != nil {
		return err
	}
	fmt.Fprintf(out, "rollscope: watching namespace %q of context %q (Ctrl-C to stop)\n", conn.Namespace, conn.Context)
	cluster := model.NewCluster()
	last := map[string]string{}
	bridge := kubewatch.New(conn.Client, kubewatch.Scope{Namespace: conn.Namespace}, nil, func(b model.Batch) {
		if !cluster.Apply(b) {
			return
		}
		for _, d := range cluster.Deployments() {
			if name != "" && d.Name != name {
				continue
			}
			v, ok := cluster.Rollout(d.Namespace, d.Name, b.At)
			if !ok {
				continue
			}
			paused := ""
			if d.Paused {
				paused = " PAUSED"
			}
			line := fmt.Sprintf("deployment/%s%s %d desired · %d updated · %d available — %s",
				d.Name, paused, d.Replicas, d.Updated, d.Available, strings.TrimSpace(v.Status))
			if last[d.Namespace+"/"+d.Name] != line {
				last[d.Namespace+"/"+d.Name] = line
				fmt.Fprintf(out, "[%s] %s\n", b.At.Format("15:04:05"), line)
			}
		}
	}, kubewatch.Options{})
	return bridge.Run(ctx)
}
