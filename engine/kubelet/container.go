package kubelet

import (
	"fmt"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

const (
	// crashAfter is how long a crash-looping container runs before it exits.
	crashAfter = time.Second
	// pullErrorShown is how long a failed pull shows as ErrImagePull before
	// the kubelet's next pod sync finds the image in back-off.
	pullErrorShown = time.Second
)

// Waiting reasons the kubelet reports, as kubectl shows them.
const (
	reasonContainerCreating = "ContainerCreating"
	reasonErrImagePull      = "ErrImagePull"
	reasonImagePullBackOff  = "ImagePullBackOff"
	reasonCrashLoopBackOff  = "CrashLoopBackOff"
)

// step is one change of a container's state.
type step int

const (
	stepNone        step = iota
	stepStart            // pulled and started: running
	stepPullFail         // the pull failed: ErrImagePull
	stepPullBackOff      // the failed image is in back-off: ImagePullBackOff
	stepReady            // the container became ready
	stepCrash            // the container exited with an error
	stepRestart          // the back-off is over: running again
	stepProbeFail        // the readiness probe failed: not ready yet
)

// event is an event to record once the status is written: a Warning,
// or one of the routine Normal ones (Options.RoutineEvents).
type event struct {
	normal          bool
	reason, message string
}

// container is one container of a pod that a sync is moving forward.
type container struct {
	pod   *corev1.Pod // as read from the lister; only for names
	name  string
	image string
	// imageID is the image's digest reference, reported once it is pulled.
	imageID string
	status  *corev1.ContainerStatus // the copy being written
	rule    ImageRule
	pull    *pullProgress
	// readiness is the container's readiness probe, nil for none; probed
	// is when it last failed.
	readiness *corev1.Probe
	probed    *time.Time
	jitter    float64   // the pod's jitter fraction
	started   time.Time // the pod's status.startTime
	restarts  bool      // the pod's restart policy restarts failed containers
	now       time.Time
	routine   bool // record the routine Normal events (Options.RoutineEvents)
	events    []event
	logs      []logWrite
}

// next returns the container's next step and when it is due, read from the
// container status (and the pull back-off for pulls that failed).
func (c *container) next() (step, time.Time) {
	s := c.status
	switch {
	case s.State.Running != nil:
		at := s.State.Running.StartedAt.Time
		if c.rule.CrashLoop {
			return stepCrash, at.Add(crashAfter)
		}
		if !s.Ready {
			readyAt := at.Add(c.rule.Ready + time.Duration(c.jitter*float64(c.rule.Jitter)))
			if probe, ok := c.nextProbe(at); ok && probe.Before(readyAt) {
				return stepProbeFail, probe
			}
			return stepReady, readyAt
		}
		return stepNone, time.Time{}
	case s.State.Terminated != nil:
		return stepNone, time.Time{}
	case s.LastTerminationState.Terminated != nil:
		// Crashed before and waiting out the restart back-off.
		return stepRestart, s.LastTerminationState.Terminated.FinishedAt.Add(backOff(int(s.RestartCount)))
	case s.State.Waiting != nil && s.State.Waiting.Reason == reasonErrImagePull && c.pull.failures > 0:
		return stepPullBackOff, c.pull.failedAt.Add(pullErrorShown)
	case s.State.Waiting != nil && (s.State.Waiting.Reason == reasonErrImagePull || s.State.Waiting.Reason == reasonImagePullBackOff):
		if c.pull.retryAt.IsZero() {
			// A restarted kubelet has no pull back-off and pulls again at once.
			c.pull.retryAt = c.now
		}
		return c.pullEnds()
	default:
		if c.pull.retryAt.IsZero() {
			c.pull.retryAt = c.started
		}
		return c.pullEnds()
	}
}

// pullEnds says how the pull in progress ends: a failure, or a start once the
// image is there.
func (c *container) pullEnds() (step, time.Time) {
	end := c.pull.retryAt.Add(c.rule.Pull)
	if c.rule.PullError {
		return stepPullFail, end
	}
	return stepStart, end.Add(c.rule.Start)
}

// apply makes step st happen at time at.
func (c *container) apply(st step, at time.Time) {
	s := c.status
	switch st {
	case stepStart:
		*c.pull = pullProgress{}
		s.ImageID = c.imageID
		c.run(at)
		if c.routine {
			// A real kubelet's words, recorded together at the start
			// rather than each as its moment comes.
			c.events = append(c.events, event{true, "Pulling", fmt.Sprintf("Pulling image %q", c.image)},
				event{true, "Pulled", fmt.Sprintf("Successfully pulled image %q", c.image)},
				event{true, "Created", "Created container: " + c.name}, event{true, "Started", "Started container " + c.name})
		}
	case stepPullFail:
		c.pull.failures++
		c.pull.failedAt = at
		c.pull.retryAt = at.Add(backOff(c.pull.failures))
		msg := pullErrorMessage(c.image)
		s.State = waiting(reasonErrImagePull, msg)
		c.warn("Failed", fmt.Sprintf("Failed to pull image %q: %s", c.image, msg))
		c.warn("Failed", "Error: "+reasonErrImagePull)
	case stepPullBackOff:
		s.State = waiting(reasonImagePullBackOff, fmt.Sprintf("Back-off pulling image %q", c.image))
		c.warn("Failed", "Error: "+reasonImagePullBackOff)
	case stepProbeFail:
		*c.probed = at
		c.warn("Unhealthy", "Readiness probe failed: "+probeFailure(c.readiness))
	case stepReady:
		s.Ready = true
	case stepCrash:
		c.crash(at)
	case stepRestart:
		s.RestartCount++
		c.run(at)
	}
}

// run starts a new run of the container.
func (c *container) run(at time.Time) {
	s := c.status
	s.State = corev1.ContainerState{Running: &corev1.ContainerStateRunning{StartedAt: metav1.NewTime(at)}}
	s.ContainerID = containerID(string(c.pod.UID), c.name, s.RestartCount)
	s.Started = ptrTo(true)
	s.Ready = false
	c.logs = append(c.logs, logWrite{containerID: s.ContainerID, at: at, lines: c.rule.Logs})
}

// crash ends the current run with exit code 1. As the upstream kubelet does,
// the first restart is immediate and later ones wait out a back-off that
// doubles from 10s to 5m.
func (c *container) crash(at time.Time) {
	s := c.status
	var startedAt metav1.Time
	if s.State.Running != nil {
		startedAt = s.State.Running.StartedAt
	}
	exited := corev1.ContainerStateTerminated{
		ExitCode: 1, Reason: "Error", StartedAt: startedAt, FinishedAt: metav1.NewTime(at), ContainerID: s.ContainerID,
	}
	s.Ready = false
	s.Started = ptrTo(false)
	c.logs = append(c.logs, logWrite{containerID: s.ContainerID, at: at, ended: true})
	if !c.restarts {
		s.State = corev1.ContainerState{Terminated: &exited}
		return
	}
	s.LastTerminationState = corev1.ContainerState{Terminated: &exited}
	if s.RestartCount == 0 {
		s.RestartCount++
		c.run(at)
		return
	}
	who := fmt.Sprintf("%s_%s(%s)", c.pod.Name, c.pod.Namespace, c.pod.UID)
	s.State = waiting(reasonCrashLoopBackOff, fmt.Sprintf("back-off %s restarting failed container=%s pod=%s", backOff(int(s.RestartCount)), c.name, who))
	c.warn("BackOff", fmt.Sprintf("Back-off restarting failed container %s in pod %s", c.name, who))
}

func (c *container) warn(reason, message string) {
	c.events = append(c.events, event{reason: reason, message: message})
}

func waiting(reason, message string) corev1.ContainerState {
	return corev1.ContainerState{Waiting: &corev1.ContainerStateWaiting{Reason: reason, Message: message}}
}

func ptrTo[T any](v T) *T { return &v }

// nextProbe is when the readiness probe of a run started at started fails
// next, as the kubelet's prober runs it: initialDelaySeconds after the
// start, then every periodSeconds (default 10). ok is false without a
// probe.
func (c *container) nextProbe(started time.Time) (time.Time, bool) {
	p := c.readiness
	if p == nil || c.probed == nil {
		return time.Time{}, false
	}
	period := time.Duration(p.PeriodSeconds) * time.Second
	if period <= 0 {
		period = 10 * time.Second
	}
	first := started.Add(time.Duration(p.InitialDelaySeconds) * time.Second)
	if c.probed.Before(first) {
		return first, true
	}
	return c.probed.Add(period), true
}

// probeFailure is what the kubelet's prober says of a failed probe of this
// kind, for a container that does not answer yet.
func probeFailure(p *corev1.Probe) string {
	switch {
	case p.HTTPGet != nil:
		return "HTTP probe failed with statuscode: 503"
	case p.TCPSocket != nil:
		return fmt.Sprintf("dial tcp: connect to port %s: connection refused", p.TCPSocket.Port.String())
	case p.GRPC != nil:
		return "service unhealthy (responded with \"NOT_SERVING\")"
	}
	return "command exited with a non-zero status"
}
