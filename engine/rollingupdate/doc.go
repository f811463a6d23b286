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
//
// It does what kubectl 1.17 does — the same scale steps, progress lines and
// end state, the user's annotations and labels kept, names of kubectl's form
// (`<old>-<md5>`, `<md5>-orig`), the writes of the prepare in kubectl's order —
// which test/e2e/rcpeer checks against kubectl 1.17 itself on a real control
// plane. What it does differently, on purpose:
//
//   - The rename creates the old name at size 0 selecting no pod
//     (RenamingLabel), then deletes the next controller, then scales the copy
//     up; kubectl deletes first and creates at full size after a 5 s poll, so
//     a kill in between leaves no controller at all.
//   - After an abort the controller that remains keeps none of the update's
//     annotations; kubectl leaves next-controller-id and original-replicas.
//   - The hash hashes the old controller's uid and the new spec (updateHash),
//     not the object with its resourceVersion, so every step and rerun
//     derives the same name.
//   - desired-replicas and update-source-id stay on the next controller until
//     the rename replaces it; they tell a rerun which update it is in.
//   - A rerun that finds the rename under way says so; kubectl prints nothing.
package rollingupdate
