// Package multicluster runs one console on two real control planes at once
// (`--context east,west` of one kubeconfig): rows from both in one fleet,
// an action sent from a row reaching only its cluster, and one control
// plane frozen while the other stays live.
package multicluster
