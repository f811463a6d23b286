package fleet

import (
	"bytes"
	"context"
	"fmt"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"rollscope/model/cluster"
	"rollscope/test/e2e/e2etest"
)

// TestPlainAllNamespaces: `rollscope --plain -A` prints a line for every
// workload of every namespace, each in the state the API reports at that
// moment — `failed` for the one past its deadline —; then a rollout started
// meanwhile prints its new state as it changes, ending rolled out with the
// API.
func TestPlainAllNamespaces(t *testing.T) {
	c := fleetCluster(t)
	p := c.plain(t, c.cp.AdminKubeconfig, "-A")
	c.agrees(t, "rollscope --plain -A", fleet, func() map[string]shown { return p.rows(t) })
	if got := p.rows(t)[teamB+" deploy/ledger"]; got.State != cluster.FleetFailed {
		t.Errorf("ledger is %s, want failed", got)
	}

	// A rollout begun while --plain -A watches: its lines say rolling,
	// then rolled out, on revision 2. A line is written when the state
	// word changes, so the rolling line may still name revision 1: the
	// console can see the new template before the deployment controller
	// has observed it and written revision 2 (the line then says
	// "Waiting for deployment spec update to be observed").
	began := len(p.lines())
	c.setImage(t, teamD, "gateway", image("gateway", "v2"), "roll gateway to v2")
	const gw = teamD + " deploy/gateway"
	e2etest.Poll(t, patience, "a rolled-out line for gateway's revision 2", func(context.Context) (bool, string, error) {
		s, ok := p.rows(t)[gw]
		return ok && s.State == cluster.FleetComplete && *s.Revision == 2, fmt.Sprintf("last line: %v", p.rows(t)[gw]), nil
	})
	var states []string
	for _, l := range p.lines()[began:] {
		if k, s, ok := parseFleetLine(l); ok && k == gw {
			states = append(states, s.String())
		}
	}
	if len(states) < 2 || !strings.HasPrefix(states[0], "rolling rev ") || !strings.HasPrefix(states[len(states)-1], "complete rev 2 ") {
		t.Errorf("gateway's lines after kubectl set image: %q; want rolling, then rolled out on revision 2", states)
	}
	c.agrees(t, "rollscope --plain -A after gateway's rollout", fleet, func() map[string]shown { return p.rows(t) })
	p.noRepeats(t)
}

// fleetLine reads a line as cluster.FleetLine writes it: "team-b
// deploy/ledger failed rev 2 1/2 updated 2/2 available FROM → TO — why".
var fleetLine = regexp.MustCompile(`(\S+) (deploy|rc|sts|ds)/(\S+) (.+?) rev (\d+) (\d+)/(\d+) updated (\d+)/(\d+) available`)

// parseFleetLine reads one line of --plain -A: the workload's key and what
// it shows.
func parseFleetLine(line string) (string, shown, bool) {
	m := fleetLine.FindStringSubmatch(line)
	if m == nil {
		return "", shown{}, false
	}
	state, ok := stateOfWord(m[4])
	if !ok {
		return "", shown{}, false
	}
	n := func(s string) int32 { v, _ := strconv.Atoi(s); return int32(v) }
	rev, _ := strconv.ParseInt(m[5], 10, 64)
	counts := [3]int32{n(m[7]), n(m[6]), n(m[8])}
	return m[1] + " " + m[2] + "/" + m[3], shown{State: state, Revision: &rev, Counts: &counts}, true
}

// stateOfWord reads the state word as the fleet shows it ("canary step
// 2/4" is a canary).
func stateOfWord(word string) (cluster.FleetState, bool) {
	if strings.HasPrefix(word, "canary") {
		return cluster.FleetCanary, true
	}
	for _, s := range cluster.FleetStates() {
		if word == s.String() {
			return s, true
		}
	}
	return 0, false
}

// agrees waits until what rollscope shows of want (and nothing more)
// agrees with the API, each read bracketed by two reads of the API, and
// fails with the last disagreements. It asserts that rollscope comes to
// tell the API's truth, not how soon.
func (c *testbed) agrees(t *testing.T, who string, want []workload, show func() map[string]shown) {
	t.Helper()
	e2etest.Poll(t, patience, who+" agreeing with the API", func(ctx context.Context) (bool, string, error) {
		before, err := readTruth(ctx, c.admin, namespaces)
		if err != nil {
			return false, "", err
		}
		seen := show()
		after, err := readTruth(ctx, c.admin, namespaces)
		if err != nil {
			return false, "", err
		}
		off := disagreements(before, after, seen, want)
		return len(off) == 0, strings.Join(off, "; "), nil
	})
}

// plainRun is rollscope --plain running beside the test.
type plainRun struct {
	mu       sync.Mutex
	out, err bytes.Buffer
	exited   chan struct{}
	state    *exec.Cmd
}

// plain starts rollscope --plain with kubeconfig and args until the test
// ends.
func (c *testbed) plain(t *testing.T, kubeconfig string, args ...string) *plainRun {
	t.Helper()
	r := &plainRun{exited: make(chan struct{})}
	ctx, cancel := context.WithCancel(context.Background())
	cmd := exec.CommandContext(ctx, c.bin, append([]string{"--plain", "--kubeconfig", kubeconfig}, args...)...)
	cmd.Stdout = e2etest.LockedWriter{Mu: &r.mu, Buf: &r.out}
	cmd.Stderr = e2etest.LockedWriter{Mu: &r.mu, Buf: &r.err}
	if err := cmd.Start(); err != nil {
		t.Fatalf("starting rollscope --plain: %v", err)
	}
	r.state = cmd
	go func() { _ = cmd.Wait(); close(r.exited) }()
	t.Cleanup(func() {
		cancel()
		<-r.exited
		t.Logf("rollscope --plain %s wrote on stdout:\n%s\nand on stderr:\n%s", strings.Join(args, " "), r.read(&r.out), r.read(&r.err))
	})
	return r
}

func (r *plainRun) read(b *bytes.Buffer) string {
	r.mu.Lock()
	defer r.mu.Unlock()
	return b.String()
}

// lines are the whole lines written on stdout so far.
func (r *plainRun) lines() []string {
	out := r.read(&r.out)
	if i := strings.LastIndexByte(out, '\n'); i >= 0 {
		return strings.Split(out[:i], "\n")
	}
	return nil
}

// rows is each workload's last line: its state now, as --plain -A says it.
// A run that has ended fails the test: -A follows the fleet until stopped.
func (r *plainRun) rows(t *testing.T) map[string]shown {
	t.Helper()
	select {
	case <-r.exited:
		t.Fatalf("rollscope --plain ended (%v); stdout:\n%s\nstderr:\n%s", r.state.ProcessState, r.read(&r.out), r.read(&r.err))
	default:
	}
	out := map[string]shown{}
	for _, l := range r.lines() {
		if k, s, ok := parseFleetLine(l); ok {
			out[k] = s
		}
	}
	return out
}

// noRepeats fails when a workload's line is printed twice in a row: a line
// is news, not a heartbeat.
func (r *plainRun) noRepeats(t *testing.T) {
	t.Helper()
	last := map[string]string{}
	for _, l := range r.lines() {
		if k, _, ok := parseFleetLine(l); ok {
			if last[k] == l {
				t.Errorf("--plain -A printed %q twice in a row", l)
			}
			last[k] = l
		}
	}
}

// waitErr waits until stderr holds a line for which ok is true, and
// returns it.
func (r *plainRun) waitErr(t *testing.T, what string, ok func(line string) bool) string {
	t.Helper()
	deadline := time.Now().Add(patience)
	for {
		for _, l := range strings.Split(r.read(&r.err), "\n") {
			if ok(l) {
				return l
			}
		}
		if time.Now().After(deadline) {
			t.Fatalf("rollscope --plain never wrote %s on stderr; it wrote:\n%s", what, r.read(&r.err))
		}
		time.Sleep(100 * time.Millisecond)
	}
}
