package kubelet

import (
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/types"

	"rollscope/model"
)

// maxLinesPerRun bounds what one container run keeps, as a runtime
// rotates its log files: the newest lines stay.
const maxLinesPerRun = 1000

// Logs keeps what the simulated containers write, by container run (the
// container ID in the pod status), as a node's runtime keeps log files, and
// serves them as the kubelet's /containerLogs does: the running container's
// log, or the previous run's, followed until the run ends. It is safe for
// concurrent use: the kubelet writes from its sync, readers follow from
// their own goroutines.
type Logs struct {
	mu sync.Mutex
	// runs are by container ID, held by value: a run is one map slot,
	// not one more object for each container run of every pod.
	runs  map[string]logRun
	byUID map[types.UID][]string // a pod's container IDs, to forget them
	// pod reads a pod as the kubelet sees it (its lister).
	pod func(namespace, name string) (*corev1.Pod, error)
	// wake is closed and replaced whenever a follower may have something
	// new to read: a line written, or a pod status changed.
	wake      chan struct{}
	followers atomic.Int32
}

type logRun struct {
	lines []logLine
	ended bool // the run exited
}

type logLine struct {
	at   time.Time
	text string
}

// NewLogs is an empty store; the kubelet it is given to (Options.Logs)
// fills it and tells it how to read pods.
func NewLogs() *Logs {
	return &Logs{runs: map[string]logRun{}, byUID: map[types.UID][]string{}, wake: make(chan struct{})}
}

// logWrite is what one container run wrote in a sync.
type logWrite struct {
	containerID string
	at          time.Time
	lines       []string
	ended       bool // the run exited
}

// write keeps the lines of a sync, once its status is written.
func (l *Logs) write(uid types.UID, writes []logWrite) {
	if l == nil || len(writes) == 0 {
		return
	}
	l.mu.Lock()
	for _, w := range writes {
		run, ok := l.runs[w.containerID]
		if !ok {
			l.byUID[uid] = append(l.byUID[uid], w.containerID)
		}
		run.ended = run.ended || w.ended
		for _, text := range w.lines {
			run.lines = append(run.lines, logLine{at: w.at, text: text})
		}
		if over := len(run.lines) - maxLinesPerRun; over > 0 {
			run.lines = append(run.lines[:0:0], run.lines[over:]...)
		}
		l.runs[w.containerID] = run
	}
	l.mu.Unlock()
	l.poke()
}

// forget drops the logs of a pod that is gone, as the kubelet removes a
// deleted pod's log directory.
func (l *Logs) forget(uid types.UID) {
	if l == nil {
		return
	}
	l.mu.Lock()
	for _, id := range l.byUID[uid] {
		delete(l.runs, id)
	}
	delete(l.byUID, uid)
	l.mu.Unlock()
	l.poke()
}

// poke wakes the followers, if any.
func (l *Logs) poke() {
	if l == nil || l.followers.Load() == 0 {
		return
	}
	l.mu.Lock()
	close(l.wake)
	l.wake = make(chan struct{})
	l.mu.Unlock()
}

// Open answers a log request as the kubelet does, with the API server's and
// the kubelet's own errors for a pod that has no such log (not scheduled,
// waiting to start, no previous run). The log is read, and followed, until
// ctx ends or the reader is closed.
func (l *Logs) Open(ctx context.Context, r model.LogRequest) (io.ReadCloser, error) {
	if l.pod == nil {
		return nil, fmt.Errorf("no kubelet keeps these logs")
	}
	pod, err := l.pod(r.Namespace, r.Pod)
	if err != nil {
		if apierrors.IsNotFound(err) {
			return nil, apierrors.NewNotFound(corev1.Resource("pods"), r.Pod)
		}
		return nil, err
	}
	container, err := logContainer(pod, r.Container)
	if err != nil {
		return nil, err
	}
	if pod.Spec.NodeName == "" {
		return nil, apierrors.NewBadRequest(fmt.Sprintf("pod %s does not have a host assigned", pod.Name))
	}
	id, err := containerLogID(pod, container, r.Previous)
	if err != nil {
		return nil, apierrors.NewBadRequest(err.Error())
	}
	pr, pw := io.Pipe()
	l.followers.Add(1)
	go func() {
		defer l.followers.Add(-1)
		pw.CloseWithError(l.copy(ctx, pw, r, id))
	}()
	return pr, nil
}

// copy writes the run's lines to w, and with Follow the lines that follow
// until the run is over.
func (l *Logs) copy(ctx context.Context, w io.Writer, r model.LogRequest, id string) error {
	next := 0
	first, seen := true, false
	for {
		l.mu.Lock()
		var lines []logLine
		run, ok := l.runs[id]
		if ok && next < len(run.lines) {
			lines = run.lines[next:]
			next = len(run.lines)
		}
		// A run the store no longer has (the pod is gone) is over too; one
		// it does not have yet is being written (the status that names it
		// is written first).
		over := !ok && seen || ok && run.ended
		seen = seen || ok
		wake := l.wake
		l.mu.Unlock()
		if first && r.TailLines > 0 && int64(len(lines)) > r.TailLines {
			lines = lines[int64(len(lines))-r.TailLines:]
		}
		first = false
		var b strings.Builder
		for _, line := range lines {
			b.WriteString(line.text)
			b.WriteByte('\n')
		}
		if b.Len() > 0 {
			if _, err := io.WriteString(w, b.String()); err != nil {
				return nil // the reader went away
			}
		}
		if !r.Follow || r.Previous || over {
			return nil
		}
		select {
		case <-ctx.Done():
			return nil
		case <-wake:
		}
	}
}

// logContainer is the container a request names, or the pod's only one,
// as the API server resolves it.
func logContainer(pod *corev1.Pod, name string) (string, error) {
	var names []string
	for _, list := range [][]corev1.Container{pod.Spec.InitContainers, pod.Spec.Containers} {
		for _, c := range list {
			if c.Name == name {
				return name, nil
			}
		}
	}
	for _, c := range pod.Spec.Containers {
		names = append(names, c.Name)
	}
	if name != "" {
		return "", apierrors.NewBadRequest(fmt.Sprintf("container %s is not valid for pod %s", name, pod.Name))
	}
	if len(names) == 1 {
		return names[0], nil
	}
	return "", apierrors.NewBadRequest(fmt.Sprintf("a container name must be specified for pod %s, choose one of: %v", pod.Name, names))
}

// containerLogID picks the run whose log is asked for, with the kubelet's
// own refusals (validateContainerLogStatus in the upstream kubelet).
func containerLogID(pod *corev1.Pod, container string, previous bool) (string, error) {
	var cs *corev1.ContainerStatus
	for _, list := range [][]corev1.ContainerStatus{pod.Status.ContainerStatuses, pod.Status.InitContainerStatuses} {
		for i := range list {
			if list[i].Name == container {
				cs = &list[i]
				break
			}
		}
		if cs != nil {
			break
		}
	}
	if cs == nil {
		return "", fmt.Errorf("container %q in pod %q is not available", container, pod.Name)
	}
	last := cs.LastTerminationState.Terminated
	switch {
	case previous:
		if last == nil || last.ContainerID == "" {
			return "", fmt.Errorf("previous terminated container %q in pod %q not found", container, pod.Name)
		}
		return last.ContainerID, nil
	case cs.State.Running != nil:
		return cs.ContainerID, nil
	case cs.State.Terminated != nil:
		if id := cs.State.Terminated.ContainerID; id != "" {
			return id, nil
		}
		if last != nil && last.ContainerID != "" {
			return last.ContainerID, nil
		}
		return "", fmt.Errorf("container %q in pod %q is terminated", container, pod.Name)
	case last != nil:
		if last.ContainerID == "" {
			return "", fmt.Errorf("container %q in pod %q is terminated", container, pod.Name)
		}
		return last.ContainerID, nil
	case cs.State.Waiting != nil:
		switch reason := cs.State.Waiting.Reason; reason {
		case reasonErrImagePull:
			return "", fmt.Errorf("container %q in pod %q is waiting to start: image can't be pulled", container, pod.Name)
		case reasonImagePullBackOff:
			return "", fmt.Errorf("container %q in pod %q is waiting to start: trying and failing to pull image", container, pod.Name)
		default:
			return "", fmt.Errorf("container %q in pod %q is waiting to start: %v", container, pod.Name, reason)
		}
	}
	return "", fmt.Errorf("container %q in pod %q is waiting to start - no logs yet", container, pod.Name)
}
