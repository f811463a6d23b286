package nodegroup

import (
	"context"
	"errors"
	"fmt"
	"time"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"

	"rollscope/model"
)

// Register creates the groups' first nodes, <group>-0 … <group>-(Size-1)
// with their InitialSpec, Ready and untainted as the nodes of a cluster
// that was running before anything was deployed to it. The embedded cluster
// registers them before it creates a scenario's workloads, so that no pod
// is ever found with no node to go to at the start (a FailedScheduling at
// 00:00:00 that no real cluster shows). The controller then finds its
// groups seeded and only replaces what goes away; nodes it launches later
// boot for their group's BootTime. A group that has nodes already (a
// restart on a running cluster) is left as it is.
func Register(ctx context.Context, client kubernetes.Interface, groups []Group, now time.Time) error {
	var errs []error
	for pos := range groups {
		g := groups[pos]
		if g.Role == RoleBastion {
			continue
		}
		there, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: model.NodeGroupLabel + "=" + g.Name})
		if err != nil {
			errs = append(errs, fmt.Errorf("node group %s: list its nodes: %w", g.Name, err))
			continue
		}
		if len(there.Items) > 0 {
			continue
		}
		spec := g.Spec
		if g.InitialSpec != "" {
			spec = g.InitialSpec
		}
		booted := g
		booted.BootTime = 0
		for i := range g.Size {
			node := newNode(&booted, pos, i, spec, now)
			created, err := client.CoreV1().Nodes().Create(ctx, node, metav1.CreateOptions{})
			if apierrors.IsAlreadyExists(err) {
				continue
			}
			if err == nil && readyCondition(created) == nil {
				created.Status = node.Status
				_, err = client.CoreV1().Nodes().UpdateStatus(ctx, created, metav1.UpdateOptions{})
			}
			if err != nil {
				errs = append(errs, fmt.Errorf("node group %s: register node %s: %w", g.Name, node.Name, err))
			}
		}
	}
	return errors.Join(errs...)
}
