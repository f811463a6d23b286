// Package rollingupdate brings back `kubectl rolling-update` for
// ReplicationControllers, with the recovery design of its original proposal:
// every piece of the update's state lives on the two controllers (the
// kubectl.kubernetes.io annotations and the deployment label), so running the
// same update again after a crash continues it, and an abort reverses it.
//
// The update is a step function: Step reads both controllers and their pods,
// makes at most one write and says how long to wait before the next step.
// Two drivers run it: Controller, a control.Controller requested by an
// annotation on the old controller (the embedded cluster on virtual time), and
// Run, a loop on a clock for the headless command against a live cluster.
// The scaling arithmetic (Limits, Next) is the legacy updater's, exactly.
package rollingupdate
