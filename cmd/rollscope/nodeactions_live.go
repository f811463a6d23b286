package main

import (
	"context"
	"maps"

	"k8s.io/client-go/kubernetes"

	"rollscope/kube/access"
	"rollscope/model/action"
	"rollscope/ui"
)

// checkNodeAccess disables the node keys a live cluster will not allow,
// with the reason.
func (f *nodeFlags) checkNodeAccess(ctx context.Context, opts *ui.Options, client kubernetes.Interface) {
	if opts.Actions == nil {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, accessTimeout)
	defer cancel()
	denied := access.DeniedNodes(ctx, client, f.deleteNodes)
	if len(denied) == 0 {
		return
	}
	if opts.Denied == nil {
		opts.Denied = map[action.Name]string{}
	}
	maps.Copy(opts.Denied, byName(denied))
}
