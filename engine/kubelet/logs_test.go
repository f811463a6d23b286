package kubelet

import (
	"context"
	"io"
	"strings"
	"testing"
	"time"

	"rollscope/model"
)

func readLog(t *testing.T, l *Logs, r model.LogRequest) (string, error) {
	t.Helper()
	rc, err := l.Open(context.Background(), r)
	if err != nil {
		return "", err
	}
	defer rc.Close()
	b, err := io.ReadAll(rc)
	if err != nil {
		t.Fatalf("reading the log: %v", err)
	}
	return string(b), nil
}

// Each run of a container writes its image rule's lines; the previous run's
// log is there after a crash; a pod that never started says why, in the
// kubelet's words.
func TestLogsByRun(t *testing.T) {
	logs := NewLogs()
	rules := []ImageRule{
		{Match: "*:broken", Start: time.Second, CrashLoop: true, Logs: []string{"starting", "fatal: config missing"}},
		{Match: "*:missing", PullError: true},
		{Match: "*", Start: time.Second, Ready: time.Second, Logs: []string{"starting", "listening on :8080"}},
	}
	h := newHarness(t, 1, rules, Options{Logs: logs})
	h.addNode("n1", true)
	h.addPod("web", "n1", "web:v2")
	h.addPod("api", "n1", "api:broken")
	h.addPod("db", "n1", "db:missing")
	h.runFor(90 * time.Second)

	if got, err := readLog(t, logs, model.LogRequest{Namespace: "default", Pod: "web"}); err != nil || got != "starting\nlistening on :8080\n" {
		t.Errorf("web's log = %q, %v; want its two lines", got, err)
	}
	if got, err := readLog(t, logs, model.LogRequest{Namespace: "default", Pod: "web", TailLines: 1}); err != nil || got != "listening on :8080\n" {
		t.Errorf("web's last line = %q, %v", got, err)
	}
	if got, err := readLog(t, logs, model.LogRequest{Namespace: "default", Pod: "api", Previous: true}); err != nil || got != "starting\nfatal: config missing\n" {
		t.Errorf("api's previous log = %q, %v; want the crashed run's lines", got, err)
	}
	_, err := readLog(t, logs, model.LogRequest{Namespace: "default", Pod: "web", Previous: true})
	if err == nil || err.Error() != `previous terminated container "a" in pod "web" not found` {
		t.Errorf("web's previous log: error %v, want the kubelet's not found", err)
	}
	_, err = readLog(t, logs, model.LogRequest{Namespace: "default", Pod: "db"})
	if err == nil || !strings.Contains(err.Error(), `container "a" in pod "db" is waiting to start:`) {
		t.Errorf("db's log: error %v, want waiting to start (image)", err)
	}
	_, err = readLog(t, logs, model.LogRequest{Namespace: "default", Pod: "nope"})
	if err == nil || err.Error() != `pods "nope" not found` {
		t.Errorf("a missing pod's log: error %v", err)
	}
}

// Following a run gets the lines it writes later and ends when the run does.
func TestLogsFollowEndsWithTheRun(t *testing.T) {
	logs := NewLogs()
	rules := []ImageRule{{Match: "*", Start: time.Second, CrashLoop: true, Logs: []string{"starting"}}}
	h := newHarness(t, 1, rules, Options{Logs: logs})
	h.addNode("n1", true)
	h.addPod("api", "n1", "api:broken")
	h.runFor(2500 * time.Millisecond) // started, not crashed yet
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	rc, err := logs.Open(ctx, model.LogRequest{Namespace: "default", Pod: "api", Follow: true})
	if err != nil {
		t.Fatal(err)
	}
	defer rc.Close()
	done := make(chan string)
	go func() {
		b, _ := io.ReadAll(rc)
		done <- string(b)
	}()
	h.runFor(2 * time.Second) // it crashes
	select {
	case got := <-done:
		if got != "starting\n" {
			t.Errorf("followed log = %q, want the run's line", got)
		}
	case <-ctx.Done():
		t.Fatal("following the log did not end when the container crashed")
	}
}
