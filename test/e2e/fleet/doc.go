// Package fleet checks rollscope's fleet view — every rollout of a cluster
// at a glance, ranked by how much it needs a human — against a real control
// plane: a fleet of four namespaces with Deployments rolled by the real
// kube-controller-manager (complete, rolling slowly under minReadySeconds,
// paused with a pending change, past its progress deadline on an image that
// never pulls, crash-looping), a StatefulSet, a DaemonSet and a
// ReplicationController, on rollscope's hollow nodes.
//
// Every state rollscope shows is compared with what the API says at that
// moment, read through client-go by the test itself (truth_test.go):
// `--plain -A`'s lines, the console's rows in tmux, and what a user allowed
// to read one namespace only gets from -A.
//
// One control plane and one fixture serve every test of the package; they
// are started by the first test that needs them and stopped by TestMain.
package fleet
