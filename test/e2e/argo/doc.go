// Package argo runs Argo Rollouts' real controller (rollouts-controller,
// built from test/argo by argobuild) on rollscope's test control plane with
// hollow nodes, and drives Rollouts as an operator does: an image change, the
// plugin's promote and abort (the status merge patches `kubectl argo rollouts`
// sends), a blue/green switch of the active Service, and an AnalysisRun whose
// web metric, served on 127.0.0.1, fails and aborts the canary. Each test
// asserts where the Rollout ends, read from its status and its ReplicaSets.
// One control plane and one controller serve the whole package (TestMain).
package argo
