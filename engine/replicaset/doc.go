// Package replicaset is the embedded ReplicaSet and ReplicationController
// controller: it keeps the number of active pods owned by each ReplicaSet (or
// ReplicationController) at spec.replicas, adopting matching orphans and
// releasing pods that no longer match, and reports replicas, ready and
// available counts in status, the way kube-controller-manager's replicaset and
// replicationmanager controllers do.
//
// Both kinds share one implementation: a ReplicationController is seen
// through a small adapter (family.go) as a ReplicaSet with a map selector,
// which is also how upstream builds its replication manager.
//
// Everything the controller decides is a function of its listers, the pod
// events it has seen and its clock: pods are taken in name order, created one
// after another inside each slow-start batch and deleted one after another in
// victim order, so that a simulation run is reproducible.
//
// Owned pods come from an index the pod handlers keep (owned.go), which
// works out once per pod update what a sync reads of the pod (status facts,
// the static part of its scale-down rank) and keeps each owner's pods in
// name order between scale-downs; orphans that an owner may adopt come from
// a set the pod handlers keep (orphans.go), so the handlers must see every
// pod from the start, as informers deliver them. Victims are chosen by
// sort.Sort's algorithm, as upstream's getPodsToDelete chooses them, because
// upstream's comparison is not transitive on ties and any other sort could
// pick other pods. Pod updates
// that cannot change an owner's decisions or status (kubelet status churn)
// do not enqueue it.
package replicaset
