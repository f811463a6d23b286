// Package rollingupdate brings back `kubectl rolling-update` for
// ReplicationControllers, with the recovery design of its original proposal:
// every piece of the update's state lives on the two controllers (the
// kubectl.kubernetes.io annotations and the deployment label), so running the
// same update again after a crash continues it, and an abort reverses it.
//
// The update is a step function: Step reads both controllers and their pods,
// makes at most one write and says how long to wait before the next step.
// Two drivers run it: Controller, a control.Controller requested by
// RequestAnnotation on the old controller (the embedded cluster on virtual
// time), and Run, a loop on a Clock for the headless command: RealClock
// against a live cluster, VirtualClock for a rehearsal on the embedded one.
// The scaling arithmetic (Limits, Next) is the legacy updater's, exactly;
// Describe reads an update's state back for display.
package rollingupdate
