package fidelity

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"strconv"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/embedded"
	"rollscope/engine/scenario"
	"rollscope/engine/sim"
	"rollscope/engine/trace"
	"rollscope/kube/memapi"
)

// epoch is where the in-process run's virtual clock starts; traces count
// from it, so its value never shows.
var epoch = time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)

// PlayEmbedded plays a scenario on the embedded cluster. The trace is what
// the operator's binary prints (`rollscope simulate -f FILE --format jsonl
// --seed N`; seed 0 keeps the scenario's). The objects at the end, which a
// trace does not carry, come from the same run made in process — the same
// code with the same seed — and the two traces must be byte-identical.
func PlayEmbedded(ctx context.Context, bin, file string, seed int64) (*Run, error) {
	cmd := exec.CommandContext(ctx, bin, "simulate", "-f", file, "--format", "jsonl", "--seed", strconv.FormatInt(seed, 10))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("rollscope simulate -f %s: %w: %s", file, err, bytes.TrimSpace(stderr.Bytes()))
	}
	tr, err := ParseTrace("embedded", out)
	if err != nil {
		return nil, err
	}
	sc, err := scenario.Load(file)
	if err != nil {
		return nil, fmt.Errorf("loading %s: %w", file, err)
	}
	again, client, err := playInProcess(ctx, sc, seed)
	if err != nil {
		return nil, err
	}
	if !bytes.Equal(out, again) {
		return nil, fmt.Errorf("%s: the in-process run's trace (%d bytes) is not the binary's (%d bytes): the objects read from it would not be the binary's", file, len(again), len(out))
	}
	f, err := readFinal(ctx, client, sc.Namespace, tr)
	if err != nil {
		return nil, err
	}
	return &Run{Trace: tr, Final: f}, nil
}

// playInProcess runs the scenario as `rollscope simulate` does and returns
// its trace and the embedded API it ran on.
func playInProcess(ctx context.Context, sc *scenario.Scenario, seed int64) ([]byte, kubernetes.Interface, error) {
	var buf bytes.Buffer
	clock := sim.NewClock(epoch)
	apiSeed := sc.Seed
	if seed != 0 {
		apiSeed = seed
	}
	tw := trace.New(&buf, trace.JSONL, epoch, sc.NodeGroups)
	tw.Script(sc.Actions) // as rollscope simulate does: action lines say what they set
	tw.NodeLinesPerInstant()
	api := memapi.New(memapi.Options{Clock: clock, Seed: apiSeed})
	cl, err := embedded.Start(ctx, api, clock, sc, embedded.Options{Seed: seed, ChangeObservers: []sim.ChangeObserver{tw.ObserveChange}, OnAction: tw.Action})
	if err != nil {
		return nil, nil, fmt.Errorf("starting %s in process: %w", sc.Name, err)
	}
	reason, err := cl.Run(ctx, 0)
	if err != nil {
		return nil, nil, fmt.Errorf("running %s in process: %w", sc.Name, err)
	}
	tw.End(clock.Now(), reason)
	if err := tw.Flush(); err != nil {
		return nil, nil, fmt.Errorf("writing %s's trace: %w", sc.Name, err)
	}
	return buf.Bytes(), cl.Client, nil
}

// readFinal reads the Deployment the trace follows and its ReplicaSets.
func readFinal(ctx context.Context, c kubernetes.Interface, namespace string, tr *Trace) (Final, error) {
	name := tr.deploymentName()
	d, err := c.AppsV1().Deployments(namespace).Get(ctx, name, metav1.GetOptions{})
	if err != nil {
		return Final{}, fmt.Errorf("reading deployment %s/%s at the end of the %s run: %w", namespace, name, tr.Source, err)
	}
	rss, err := c.AppsV1().ReplicaSets(namespace).List(ctx, metav1.ListOptions{})
	if err != nil {
		return Final{}, fmt.Errorf("listing ReplicaSets in %s at the end of the %s run: %w", namespace, tr.Source, err)
	}
	return finalOf(d, rss.Items), nil
}

// deploymentName is the name of the first Deployment in the trace.
func (tr *Trace) deploymentName() string {
	for _, l := range tr.Lines {
		if l.Type == typeDeployment {
			return l.Name
		}
	}
	return ""
}

// namespace is the namespace of the first Deployment in the trace: a live
// run makes a fresh one.
func (tr *Trace) namespace() string {
	for _, l := range tr.Lines {
		if l.Type == typeDeployment {
			return l.Namespace
		}
	}
	return ""
}
