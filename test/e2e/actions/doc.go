// Package actions runs every rollout action of rollscope's engine/actions
// against a real Kubernetes control plane (controlplane) with hollow nodes
// (engine/live): the real API server answers the requests and the real
// deployment controller rolls them out, so the tests show that the
// cluster ends where the matching kubectl command would leave it, that
// refusals send nothing, and that a real 409 Conflict is retried. One
// control plane serves the whole package; each test works in a namespace
// of its own, in parallel.
package actions
