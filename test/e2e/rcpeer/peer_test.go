package rcpeer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	corev1 "k8s.io/api/core/v1"
)

// run is one tool's run in its namespace: what it printed and how long it
// took.
type run struct {
	stdout, stderr string
	took           time.Duration
	err            error
	// timed is stdout with when each line came, for the log.
	timed string
}

// timedWriter keeps what it is written and, per line, when.
type timedWriter struct {
	start       time.Time
	plain, with bytes.Buffer
}

func (w *timedWriter) Write(p []byte) (int, error) {
	w.plain.Write(p)
	for _, l := range strings.SplitAfter(string(p), "\n") {
		if l != "" {
			fmt.Fprintf(&w.with, "%6.2fs %s", time.Since(w.start).Seconds(), l)
		}
	}
	return len(p), nil
}

func (c *cluster) run(t *testing.T, tool, ns string, args ...string) run {
	cmd := c.command(t, tool, ns, args...)
	start := time.Now()
	out := &timedWriter{start: start}
	var errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = out, &errOut
	err := cmd.Run()
	return run{stdout: out.plain.String(), stderr: errOut.String(), took: time.Since(start), err: err, timed: out.with.String()}
}

// killAt starts the update and SIGKILLs it once foo is at old replicas and
// the next controller at next: right after a scale-up, a whole update
// period before the next write.
func (c *cluster) killAt(t *testing.T, tool, ns string, r *recorder, old, next int32, args ...string) error {
	cmd := c.command(t, tool, ns, args...)
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		return err
	}
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	deadline := time.After(patience)
	for !r.at(old, next) {
		select {
		case err := <-exited:
			return fmt.Errorf("%s exited (%v) before foo %d, next %d:\n%s", tool, err, old, next, out.String())
		case <-deadline:
			_ = cmd.Process.Kill()
			return fmt.Errorf("%s never reached foo %d, next %d:\n%s", tool, old, next, out.String())
		case <-time.After(20 * time.Millisecond):
		}
	}
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		return err
	}
	<-exited
	return nil
}

// observed is what one tool did in one case.
type observed struct {
	runs  []run
	steps []string
	final finals
	peak  int
	// writes counts the controller writes the case saw.
	writes int
}

// peerCase is one case both tools run, each in its own namespace.
type peerCase struct {
	name string
	foo  controller
	// do runs the tool's commands; the last run is the one compared.
	do func(t *testing.T, c *cluster, tool, ns string, r *recorder) ([]run, error)
	// refused: the tool must refuse and write nothing.
	refused string
	// deliberate removes the differences rollscope keeps on purpose from
	// kubectl's final objects (see deliberate_test.go).
	deliberate func(finals) finals
}

func update(args ...string) func(*testing.T, *cluster, string, string, *recorder) ([]run, error) {
	return func(t *testing.T, c *cluster, tool, ns string, _ *recorder) ([]run, error) {
		return []run{c.run(t, tool, ns, args...)}, nil
	}
}

// killedThen kills an update at foo 9, next 2 (of 10), then runs args.
func killedThen(args ...string) func(*testing.T, *cluster, string, string, *recorder) ([]run, error) {
	return func(t *testing.T, c *cluster, tool, ns string, r *recorder) ([]run, error) {
		if err := c.killAt(t, tool, ns, r, 9, 2, "--image", newImage); err != nil {
			return nil, err
		}
		return []run{c.run(t, tool, ns, args...)}, nil
	}
}

func ten() controller { return controller{replicas: 10} }

var peerCases = []peerCase{
	{name: "full", foo: ten(), do: update("--image", newImage)},
	{name: "rollback", foo: ten(), do: killedThen("--rollback"), deliberate: withoutRollbackLeftovers},
	{name: "resume", foo: ten(), do: killedThen("--image", newImage)},
	{name: "track", foo: controller{replicas: 3}, do: update("--image", newImage, "--deployment-label-key", "track")},
	{name: "sidecar", foo: controller{replicas: 2, containers: []corev1.Container{{Name: "app", Image: oldImage}, {Name: "sidecar", Image: "e2e.example/sidecar:v1"}}},
		do: update("--image", newImage), refused: "must specify container to update when updating a multi-container pod"},
}

// TestRollingUpdateBesideKubectl117 shares one control plane between the
// side-by-side comparison and the kill at every write, run at once: each
// waits mostly on update periods.
func TestRollingUpdateBesideKubectl117(t *testing.T) {
	c := startCluster(t)
	t.Run("side by side with kubectl 1.17", func(t *testing.T) { t.Parallel(); sideBySide(t, c) })
	t.Run("killed after every write", func(t *testing.T) { t.Parallel(); killedAfterEveryWrite(t, c) })
}

// sideBySide runs every case with both tools at once and compares them.
func sideBySide(t *testing.T, c *cluster) {
	results := map[string]map[string]*observed{}
	for _, pc := range peerCases {
		results[pc.name] = map[string]*observed{}
		for _, tool := range []string{kubectl, rollscope} {
			c.createFoo(t, pc.name+"-"+tool, pc.foo)
		}
	}
	for _, pc := range peerCases {
		for _, tool := range []string{kubectl, rollscope} {
			c.settled(t, pc.name+"-"+tool, pc.foo.replicas)
		}
	}
	recorders := map[string]*recorder{}
	for _, pc := range peerCases {
		for _, tool := range []string{kubectl, rollscope} {
			ns := pc.name + "-" + tool
			recorders[ns] = c.record(t, ns)
		}
	}
	start := time.Now()
	var wg sync.WaitGroup
	var mu sync.Mutex
	for _, pc := range peerCases {
		for _, tool := range []string{kubectl, rollscope} {
			ns := pc.name + "-" + tool
			wg.Add(1)
			go func() {
				defer wg.Done()
				runs, err := pc.do(t, c, tool, ns, recorders[ns])
				if err != nil {
					t.Errorf("%s, %s: %v", pc.name, tool, err)
					return
				}
				mu.Lock()
				results[pc.name][tool] = &observed{runs: runs}
				mu.Unlock()
			}()
		}
	}
	wg.Wait()
	t.Logf("every case with both tools took %v", time.Since(start).Round(time.Second))
	for _, pc := range peerCases {
		t.Run(pc.name, func(t *testing.T) {
			k, rs := results[pc.name][kubectl], results[pc.name][rollscope]
			if k == nil || rs == nil {
				t.Fatal("a tool did not finish the case (see above)")
			}
			for _, tool := range []string{kubectl, rollscope} {
				ns := pc.name + "-" + tool
				o, r := results[pc.name][tool], recorders[ns]
				if pc.refused == "" {
					c.settled(t, ns, pc.foo.replicas)
				}
				s, err := c.read(t.Context(), ns)
				if err != nil {
					t.Fatal(err)
				}
				o.final, o.steps, o.peak, o.writes = finalsOf(s), r.scaleSteps(), r.peak(), r.writes()
			}
			compare(t, pc, k, rs)
		})
	}
}

func compare(t *testing.T, pc peerCase, k, rs *observed) {
	t.Helper()
	kr, rr := k.runs[len(k.runs)-1], rs.runs[len(rs.runs)-1]
	t.Logf("kubectl 1.17 took %v, rollscope %v", kr.took.Round(10*time.Millisecond), rr.took.Round(10*time.Millisecond))
	t.Logf("kubectl 1.17 printed:\n%s\nrollscope printed:\n%s\nscale steps, kubectl: %v\nscale steps, rollscope: %v\nmost pods at once: kubectl %d, rollscope %d",
		kr.timed, rr.timed, k.steps, rs.steps, k.peak, rs.peak)
	if pc.refused != "" {
		for tool, o := range map[string]*observed{kubectl: k, rollscope: rs} {
			r := o.runs[len(o.runs)-1]
			if r.err == nil || !strings.Contains(r.stdout+r.stderr, pc.refused) {
				t.Errorf("%s: %v, want a refusal saying %q:\n%s%s", tool, r.err, pc.refused, r.stdout, r.stderr)
			}
			if o.writes != 0 {
				t.Errorf("%s wrote %d times before refusing", tool, o.writes)
			}
		}
		if rr.stdout != "" || strings.Count(strings.TrimSpace(rr.stderr), "\n") != 0 {
			t.Errorf("rollscope's refusal is not one line on stderr:\nstdout: %q\nstderr: %q", rr.stdout, rr.stderr)
		}
	} else {
		for tool, r := range map[string]run{kubectl: kr, rollscope: rr} {
			if r.err != nil {
				t.Errorf("%s: %v\n%s%s", tool, r.err, r.stdout, r.stderr)
			}
		}
		if got, want := normalize(rr.stdout), normalize(kr.stdout); got != want {
			t.Errorf("progress lines differ\nrollscope:\n%s\nkubectl 1.17:\n%s", got, want)
		}
	}
	if !reflect.DeepEqual(rs.steps, k.steps) {
		t.Errorf("scale steps differ\nrollscope:    %v\nkubectl 1.17: %v", rs.steps, k.steps)
	}
	kf := k.final
	if pc.deliberate != nil {
		kf = pc.deliberate(kf)
	}
	if !reflect.DeepEqual(rs.final, kf) {
		t.Errorf("final objects differ\nrollscope:\n%s\nkubectl 1.17 (deliberate differences removed):\n%s", js(rs.final), js(kf))
	}
	// kubectl 1.17 is not held to the limit: it is the peer, not the
	// product (its --rollback can briefly run one more, see the log).
	if limit := int(pc.foo.replicas) + 1; rs.peak > limit {
		t.Errorf("rollscope ran %d pods at once, more than replicas + 1 = %d (kubectl 1.17: %d)", rs.peak, limit, k.peak)
	}
	if pc.name == "full" && rr.took > kr.took*110/100 {
		t.Errorf("rollscope's full update took %v, more than kubectl 1.17's %v + 10%%", rr.took, kr.took)
	}
}

func js(v any) string {
	b, _ := json.MarshalIndent(v, "", "  ")
	return string(b)
}
