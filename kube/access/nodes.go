package access

import (
	"context"
	"strings"

	"k8s.io/client-go/kubernetes"
)

var (
	getNodes          = Permission{Verb: "get", Resource: "nodes"}
	listNodes         = Permission{Verb: "list", Resource: "nodes"}
	updateNodes       = Permission{Verb: "update", Resource: "nodes"}
	evictPods         = Permission{Verb: "create", Resource: "pods", Subresource: "eviction"}
	deleteNodeObjects = Permission{Verb: "delete", Resource: "nodes"}
)

// NodeNeeds is what each node key sends, by the console's action name. The
// drain and node-roll controllers the console runs on a live cluster act
// as the same user, so a drain needs the evictions too. Nodes are not
// namespaced, and a drain evicts pods of every namespace: these are asked
// cluster-wide.
var NodeNeeds = map[string][]Permission{
	"cordon":     {getNodes, updateNodes},
	"uncordon":   {getNodes, updateNodes},
	"drain":      {getNodes, updateNodes, evictPods},
	"roll-group": {listNodes, updateNodes, evictPods},
	"next-step":  {listNodes, updateNodes},
	"pause-roll": {listNodes, updateNodes},
	"stop-roll":  {listNodes, updateNodes},
}

// DeniedNodes asks about every permission the node keys need, cluster-wide,
// and returns the keys the user may not use with the reason, by action
// name. With deleteNodes (--delete-nodes) a roll must also delete Node
// objects.
func DeniedNodes(ctx context.Context, c kubernetes.Interface, deleteNodes bool) map[string]string {
	answers := map[Permission]string{}
	out := map[string]string{}
	for action, perms := range NodeNeeds {
		if action == "roll-group" && deleteNodes {
			perms = append(perms[:len(perms):len(perms)], deleteNodeObjects)
		}
		var missing []string
		for _, p := range perms {
			why, asked := answers[p]
			if !asked {
				// review names the namespace it asked in; "" is every
				// namespace, which reads better as cluster-wide.
				why = strings.Replace(review(ctx, c, "", p), ` in namespace ""`, " cluster-wide", 1)
				answers[p] = why
			}
			if why != "" {
				missing = append(missing, why)
			}
		}
		if len(missing) > 0 {
			out[action] = "not allowed: " + strings.Join(missing, "; ")
		}
	}
	return out
}
