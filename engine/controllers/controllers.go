// Package controllers names the controller upstream runs for each workload
// kind of the registry (model/kind), so that the embedded cluster and a
// forecast's rehearsal start the same one, under the same name. A new kind
// adds its controller here, beside its own package.
package controllers

import (
	"rollscope/engine/argorollout"
	"rollscope/engine/control"
	"rollscope/engine/daemonset"
	"rollscope/engine/deployment"
	"rollscope/engine/replicaset"
	"rollscope/engine/statefulset"
	"rollscope/model/kind"
)

// Workload is the controller of one workload kind (or of ReplicaSets, which
// Deployments roll through and no kind names).
type Workload struct {
	// Kind is the kind it controls; "" for the ReplicaSet controller.
	Kind kind.Kind
	// Name is the controller's name, as kube-controller-manager's events
	// and field managers carry it.
	Name string
	// New makes the controller on env.
	New func(env *control.Env) control.Controller
}

// workloads are in the order the embedded cluster starts them: the order
// its runner hands them changes, and so the order of what they write.
var workloads = []Workload{
	{kind.Deployment, "deployment-controller", func(env *control.Env) control.Controller { return deployment.New(env) }},
	{"", "replicaset-controller", func(env *control.Env) control.Controller { return replicaset.NewReplicaSet(env) }},
	{kind.ReplicationController, "replicationcontroller-controller", func(env *control.Env) control.Controller {
		return replicaset.NewReplicationController(env)
	}},
	{kind.StatefulSet, statefulset.Name, func(env *control.Env) control.Controller { return statefulset.New(env) }},
	{kind.DaemonSet, daemonset.Name, func(env *control.Env) control.Controller { return daemonset.New(env) }},
	{kind.Rollout, argorollout.Name, func(env *control.Env) control.Controller { return argorollout.New(env) }},
}

// All are the workload controllers, in the order they start.
func All() []Workload { return append([]Workload(nil), workloads...) }

// For is the controller of kind k; false for a kind rollscope runs none of.
func For(k kind.Kind) (Workload, bool) {
	for _, w := range workloads {
		if w.Kind == k && k != "" {
			return w, true
		}
	}
	return Workload{}, false
}
