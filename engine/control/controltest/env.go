package controltest

import (
	"math/rand"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	appslisters "k8s.io/client-go/listers/apps/v1"
	corelisters "k8s.io/client-go/listers/core/v1"
	policylisters "k8s.io/client-go/listers/policy/v1"
	"k8s.io/client-go/tools/cache"

	"rollscope/engine/control"
	"rollscope/model/kind"
)

// apiKinds is the API type each watched kind lists.
var apiKinds = func() map[control.Kind]schema.GroupVersionKind {
	m := map[control.Kind]schema.GroupVersionKind{
		control.Pods:                 corev1.SchemeGroupVersion.WithKind("Pod"),
		control.Nodes:                corev1.SchemeGroupVersion.WithKind("Node"),
		control.ReplicaSets:          appsv1.SchemeGroupVersion.WithKind("ReplicaSet"),
		control.PodDisruptionBudgets: policyv1.SchemeGroupVersion.WithKind("PodDisruptionBudget"),
		control.ControllerRevisions:  appsv1.SchemeGroupVersion.WithKind("ControllerRevision"),
		control.Events:               corev1.SchemeGroupVersion.WithKind("Event"),
	}
	for _, e := range kind.Builtin() {
		m[control.Workload(e.Kind)] = e.GroupVersion.WithKind(e.Name)
	}
	return m
}()

// newEnv wires every lister to the harness's caches, so that one harness
// serves any controller. Rand is seeded alike in every run.
func newEnv(h *Harness) *control.Env {
	ix := h.indexers
	return &control.Env{
		Client: h.Client,
		Listers: control.Listers{
			Pods:                   corelisters.NewPodLister(ix[control.Pods]),
			Nodes:                  corelisters.NewNodeLister(ix[control.Nodes]),
			Deployments:            appslisters.NewDeploymentLister(ix[control.Deployments]),
			ReplicaSets:            appslisters.NewReplicaSetLister(ix[control.ReplicaSets]),
			ReplicationControllers: corelisters.NewReplicationControllerLister(ix[control.ReplicationControllers]),
			PodDisruptionBudgets:   policylisters.NewPodDisruptionBudgetLister(ix[control.PodDisruptionBudgets]),
			Workloads:              workloads(ix),
			ControllerRevisions:    appslisters.NewControllerRevisionLister(ix[control.ControllerRevisions]),
			PodIndex:               ix[control.Pods],
			ReplicaSetIndex:        ix[control.ReplicaSets],
			RCIndex:                ix[control.ReplicationControllers],
			RevisionIndex:          ix[control.ControllerRevisions],
			DeploymentIndex:        ix[control.Deployments],
			BudgetIndex:            ix[control.PodDisruptionBudgets],
		},
		Clock:  h.Clock,
		Events: h.Events,
		Rand:   rand.New(rand.NewSource(1)),
	}
}

// workloads are the harness's caches of the registry's workload kinds,
// Argo's Rollouts too (a test adds those to Indexer itself: the harness's
// typed client does not serve them).
func workloads(ix map[control.Kind]cache.Indexer) map[kind.Kind]cache.Indexer {
	m := map[kind.Kind]cache.Indexer{}
	for _, e := range kind.All() {
		m[e.Kind] = ix[control.Workload(e.Kind)]
	}
	return m
}
