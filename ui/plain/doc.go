// Package plain is the console for a pipe or a log (--plain): the status
// lines of the rollouts followed, or of a fleet, each after a stamp; what is
// said on stderr when the picture stops being current; and when a run that
// follows rollouts ends and with what outcome, as `kubectl rollout status`
// ends. It reads the watch's batches (cluster.Batch) only: which watch and
// which cluster feed it is the command's wiring.
package plain
