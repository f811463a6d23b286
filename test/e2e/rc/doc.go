// Package rc runs `rollscope rolling-update`, the real binary, against a real
// control plane's replicationcontroller controller and garbage collector,
// with hollow nodes running the pods: a full update with the rename, an
// update killed mid-way and run again, and an abort from mid-rollout. A pod
// watch checks throughout that no more than replicas + maxSurge pods run
// at once, and each case ends with one controller at full size owning every
// pod.
package rc
