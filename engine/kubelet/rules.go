package kubelet

import "time"

// ImageRule says how the simulated kubelet treats images that match it. The
// first matching rule of a list wins.
type ImageRule struct {
	// Match is a glob over the whole image reference; '*' matches any run of
	// characters, including '/' and ':'.
	Match string
	// Pull, Start and Ready are the delays from binding to image pulled, from
	// pulled to container running, and from running to the Ready condition.
	Pull, Start, Ready time.Duration
	// Jitter adds a reproducible random delay in [0, Jitter) to Ready.
	Jitter time.Duration
	// Stop is how long the container takes to exit after deletion, capped by
	// the pod's termination grace period. Zero means one second.
	Stop time.Duration
	// CrashLoop makes the container exit with an error shortly after it
	// starts, every time: the pod goes into CrashLoopBackOff.
	CrashLoop bool
	// PullError makes every pull fail: ErrImagePull, then ImagePullBackOff.
	PullError bool
	// Logs are the lines each run of the container writes when it starts:
	// what `kubectl logs` shows of it.
	Logs []string
}
