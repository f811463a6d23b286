// Package rcpeer runs rollscope's `rolling-update` and kubectl 1.17's own
// (k8s.io/kubectl v0.17.17, built by kubectlpeer) side by side on one real
// control plane, each in a namespace of its own, on the same cases: a full
// update, --rollback after a SIGKILL, the same command re-run after a
// SIGKILL, --deployment-label-key, and --image on a pod of two containers;
// every controller carries the user's annotations and labels. It compares
// the scale steps (from a watch of every write), the progress lines, the
// final objects and the time taken, and fails on any difference that
// deliberate_test.go does not name. It also kills rollscope after every write of
// an update, the rename included, and runs it again.
package rcpeer
