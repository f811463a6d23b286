package access

import (
	"context"

	"k8s.io/client-go/kubernetes"

	"rollscope/model/action"
)

// DeniedNodes is Denied for the node keys alone, by the key map's names.
//
// Deprecated: only the console wiring calls it, until it takes Denied's
// answer for every key at once; delete it then.
func DeniedNodes(ctx context.Context, c kubernetes.Interface, deleteNodes bool) map[string]string {
	var specs []action.Spec
	for _, n := range action.Of(action.OnNode, action.OnNodeGroup) {
		s, _ := action.Lookup(n)
		specs = append(specs, s)
	}
	out := map[string]string{}
	for n, why := range denied(ctx, c, "", deleteNodes, specs) {
		out[string(n)] = why
	}
	return out
}
