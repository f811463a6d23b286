// Package controlplane runs a real Kubernetes control plane on loopback for
// rollscope's end-to-end tests: etcd, kube-apiserver, kube-controller-manager
// and kube-scheduler, built by package cpbuild.
//
// The API server serves TLS with a freshly generated CA, signs service-account
// tokens with a fresh key, authorizes with RBAC and knows two static token
// users: an admin (system:masters) and a view-only user that may get, list and
// watch everything and write nothing. Kubeconfigs for both are written to the
// control plane's directory. Every process runs in its own process group with a
// parent-death signal, so an interrupted test does not leave them running;
// their logs are kept in the directory and printed when a test fails.
package controlplane
