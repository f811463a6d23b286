package kubelet

import "time"

// The kubelet's back-off for restarting crashed containers and for retrying
// failed image pulls: 10s, doubling after each failure, capped at 5m.
const (
	initialBackOff = 10 * time.Second
	maxBackOff     = 5 * time.Minute
)

// backOff is the wait after the n-th consecutive failure (n ≥ 1).
func backOff(n int) time.Duration {
	d := initialBackOff
	for i := 1; i < n; i++ {
		d *= 2
		if d >= maxBackOff {
			return maxBackOff
		}
	}
	return d
}
