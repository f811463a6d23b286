package ui

import (
	"context"
	"errors"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	tea "charm.land/bubbletea/v2"

	"rollscope/model"
	"rollscope/model/cluster"
	"rollscope/themes"
)

// podSource is the fixture with pod details, as cluster.Cluster answers them.
type podSource struct {
	*fakeSource
	mu   sync.Mutex
	pods map[string]cluster.PodDetail
}

func (p *podSource) Pod(ns, name string) (cluster.PodDetail, bool) {
	p.mu.Lock()
	defer p.mu.Unlock()
	d, ok := p.pods[ns+"/"+name]
	return d, ok
}

// fakeLogs answers log requests: the lines it holds for a pod, then, when
// following, whatever the test writes until it closes the stream.
type fakeLogs struct {
	mu       sync.Mutex
	lines    map[string]string // by pod
	asked    []model.LogRequest
	writer   *io.PipeWriter // the open follow stream
	canceled chan struct{}  // closed when a stream's context ends
}

func (f *fakeLogs) Open(ctx context.Context, r model.LogRequest) (io.ReadCloser, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.asked = append(f.asked, r)
	if r.Previous {
		return nil, errors.New(`previous terminated container "web" in pod "` + r.Pod + `" not found`)
	}
	pr, pw := io.Pipe()
	f.writer = pw
	canceled := f.canceled
	go func() {
		_, _ = io.WriteString(pw, f.lines[r.Pod])
		if !r.Follow {
			pw.Close()
		}
		<-ctx.Done()
		pw.CloseWithError(ctx.Err())
		if canceled != nil {
			close(canceled)
		}
	}()
	return pr, nil
}

func (f *fakeLogs) write(s string) {
	f.mu.Lock()
	w := f.writer
	f.mu.Unlock()
	_, _ = io.WriteString(w, s)
}

// teaRun is a small Bubble Tea: commands run on goroutines and their
// messages come back to Update, as the program does.
type teaRun struct {
	t    *testing.T
	m    Model
	msgs chan tea.Msg
}

func newTeaRun(t *testing.T, m Model) *teaRun {
	return &teaRun{t: t, m: m, msgs: make(chan tea.Msg, 64)}
}

func (r *teaRun) run(cmd tea.Cmd) {
	if cmd != nil {
		go func() { r.msgs <- cmd() }()
	}
}

// send hands msg to Update, then takes the messages its commands bring
// until none comes for a while (a followed stream waiting for lines).
func (r *teaRun) send(msg tea.Msg) {
	r.t.Helper()
	next, cmd := r.m.Update(msg)
	r.m = next.(Model)
	r.run(cmd)
	r.settle()
}

func (r *teaRun) settle() {
	for {
		select {
		case msg := <-r.msgs:
			if msg == nil {
				continue
			}
			next, cmd := r.m.Update(msg)
			r.m = next.(Model)
			r.run(cmd)
		case <-time.After(300 * time.Millisecond):
			return
		}
	}
}

func (r *teaRun) screen() string { return plain(r.m) }

func whyModel(t *testing.T, logs *fakeLogs) (Model, *podSource) {
	t.Helper()
	src := &podSource{fakeSource: midRollout(), pods: map[string]cluster.PodDetail{
		"shop/frontend-7b7d5974f6-00000": {
			Namespace: "shop", Name: "frontend-7b7d5974f6-00000", Node: "node-0", Status: "Running",
			Owner: "ReplicaSet/frontend-7b7d5974f6", Created: t0.Add(-40 * time.Second),
			Containers: []cluster.ContainerDetail{{Name: "web", Image: "nginx:1.28", Restarts: 5,
				State:     cluster.ContainerStateRow{Kind: "Waiting", Reason: "CrashLoopBackOff"},
				LastState: cluster.ContainerStateRow{Kind: "Terminated", Reason: "Error", ExitCode: 1, Finished: t0.Add(-3 * time.Second)}}},
			Events: []cluster.EventRow{{Type: "Warning", Reason: "BackOff", From: "kubelet", Message: "Back-off restarting failed container web",
				Count: 5, First: t0.Add(-30 * time.Second), Last: t0.Add(-3 * time.Second)}},
		},
	}}
	opts := Options{Cluster: src, Namespace: "shop", Deployment: "frontend", Context: "kind-dev", Theme: themes.Dark(), Clock: fixedClock}
	if logs != nil {
		opts.Logs = logs
	}
	m := New(opts)
	m = send(m, tea.WindowSizeMsg{Width: 120, Height: 40}, press("tab")) // the Pods pane
	return m, src
}

// enter on a pod opens what describe shows, and it follows the pod.
func TestEnterOnAPodShowsItsDetail(t *testing.T) {
	m, src := whyModel(t, nil)
	r := newTeaRun(t, m)
	r.send(press("enter"))
	s := r.screen()
	for _, want := range []string{"pod shop/frontend-7b7d5974f6-00000", "Controlled By: ReplicaSet/frontend-7b7d5974f6",
		"Waiting CrashLoopBackOff", "Last State: Terminated Error  exit code 1", "Restart Count: 5",
		"BackOff", "3s (x5 over 30s)", "kubelet"} {
		if !strings.Contains(s, want) {
			t.Errorf("the pod detail lacks %q:\n%s", want, s)
		}
	}
	// What the view says must be true now: the pod changes, the next read
	// shows it.
	src.mu.Lock()
	d := src.pods["shop/frontend-7b7d5974f6-00000"]
	d.Containers[0].State = cluster.ContainerStateRow{Kind: "Running", Started: t0}
	src.pods["shop/frontend-7b7d5974f6-00000"] = d
	src.mu.Unlock()
	r.send(tickMsg(t0))
	if s := r.screen(); !strings.Contains(s, "State:      Running") {
		t.Errorf("the detail did not follow the pod:\n%s", s)
	}
	r.send(press("esc"))
	if s := r.screen(); strings.Contains(s, "pod shop/frontend") || !strings.Contains(s, "Pods of") {
		t.Errorf("esc did not close the detail:\n%s", s)
	}
}

// l with nothing to read logs from says why and opens nothing.
func TestLogsKeyWithoutALogSourceSaysWhy(t *testing.T) {
	m, _ := whyModel(t, nil)
	r := newTeaRun(t, m)
	r.send(press("l"))
	if s := r.screen(); !strings.Contains(s, "no cluster to act on") || strings.Contains(s, "logs shop/") {
		t.Errorf("l without a log source:\n%s", s)
	}
}

// l follows the pod's log while the view is open, and only then.
func TestLogsFollowPreviousSearchAndClose(t *testing.T) {
	logs := &fakeLogs{lines: map[string]string{"frontend-7b7d5974f6-00000": "starting web\nlistening on :8080\n"},
		canceled: make(chan struct{})}
	m, _ := whyModel(t, logs)
	r := newTeaRun(t, m)
	r.send(press("l"))
	s := r.screen()
	if !strings.Contains(s, "logs shop/frontend-7b7d5974f6-00000") || !strings.Contains(s, "listening on :8080") || !strings.Contains(s, "following") {
		t.Fatalf("the logs view:\n%s", s)
	}
	if r := logs.asked[0]; !r.Follow || r.Previous || r.Namespace != "shop" || r.TailLines <= 0 {
		t.Errorf("asked %+v, want the current run followed from its last lines", r)
	}
	// A line written later arrives while following.
	logs.write("GET /healthz 200\n")
	r.settle()
	if s := r.screen(); !strings.Contains(s, "GET /healthz 200") {
		t.Errorf("a followed line did not arrive:\n%s", s)
	}
	// Search.
	for _, msg := range append(typed("/listen"), press("enter")) {
		r.send(msg)
	}
	if s := r.screen(); !strings.Contains(s, "/listen  (n next, N previous)") {
		t.Errorf("search:\n%s", s)
	}
	// p: the previous run, which this container does not have.
	r.send(press("p"))
	if s := r.screen(); !strings.Contains(s, `✖ previous terminated container "web"`) || !strings.Contains(s, "previous run") {
		t.Errorf("previous run's log:\n%s", s)
	}
	select {
	case <-logs.canceled:
	case <-time.After(5 * time.Second):
		t.Fatal("asking for the previous run left the followed stream open")
	}
	r.send(press("esc"))
	if s := r.screen(); strings.Contains(s, "logs shop/") {
		t.Errorf("esc did not close the logs view:\n%s", s)
	}
}
