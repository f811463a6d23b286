// Package fidelity checks that rollscope's embedded cluster rolls out a
// Deployment the way a real control plane does. Each scenario under
// testdata/fidelity is played twice — `rollscope simulate` on the embedded
// cluster, and `rollscope simulate --kubeconfig` against kube-apiserver,
// kube-controller-manager and kube-scheduler v1.36.3 with hollow nodes — and
// the two traces must agree: the rollout invariants at every line, the final
// ReplicaSets (sizes, revisions, revision-history, images), the Deployment's
// conditions, and, where the strategy forces one step at a time, the exact
// sequence of ReplicaSet sizes. When they do not, the failure prints both
// traces side by side.
package fidelity
