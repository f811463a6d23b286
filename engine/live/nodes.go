package live

import (
	"context"
	"errors"
	"fmt"
	"strings"

	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/labels"
	"k8s.io/apimachinery/pkg/selection"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/kubelet"
	"rollscope/engine/nodegroup"
	"rollscope/model"
)

// Nodes are hollow nodes: the node groups' nodes and the kubelets that run
// their pods, both rollscope's simulators, on a real API server.
type Nodes struct {
	Groups []nodegroup.Group
	// Images says how the kubelets treat each image (pull, start and ready
	// delays, crash loops, pull errors).
	Images []kubelet.ImageRule
	// OnError hears about failed syncs; they are retried with back-off.
	OnError func(controller, key string, err error)
	// Logs, when set, is where the kubelets keep their containers' logs
	// and answer the API server's pods/log: the groups' nodes advertise
	// its address. The caller serves it (LogServer.Serve).
	Logs *kubelet.LogServer
	// RoutineEvents has the kubelets record a real kubelet's Normal events
	// for each container started, not only Warnings.
	RoutineEvents bool
}

// Run keeps the groups' nodes and runs their pods until ctx ends. The Node
// objects are left in place; Delete removes them.
func (n Nodes) Run(ctx context.Context, client kubernetes.Interface) error {
	r, err := NewRunner(client, n.OnError)
	if err != nil {
		return err
	}
	n.AddTo(r)
	return r.Run(ctx)
}

// AddTo registers the groups' node controller and their kubelets on r, for
// a runner that runs more than hollow nodes (a live simulation also runs
// drains and node rolls on them).
func (n Nodes) AddTo(r *Runner) {
	groups := n.Groups
	opts := kubelet.Options{Serves: n.serves, RoutineEvents: n.RoutineEvents}
	if n.Logs != nil {
		groups = make([]nodegroup.Group, len(n.Groups))
		for i, g := range n.Groups {
			g.Kubelet = &nodegroup.Endpoint{IP: n.Logs.IP(), Port: n.Logs.Port()}
			groups[i] = g
		}
		opts.Logs = n.Logs.Logs
	}
	r.Add(nodegroup.New(r.Env("node-group-controller"), groups))
	r.Add(kubelet.New(r.Env("kubelet"), n.Images, opts))
}

// serves reports whether a node belongs to one of the groups: the node group
// controller names nodes GROUP-INDEX.
func (n Nodes) serves(node string) bool {
	for _, g := range n.Groups {
		if strings.HasPrefix(node, g.Name+"-") {
			return true
		}
	}
	return false
}

// Delete removes the groups' Node objects, as tearing down a cluster's
// instance groups would. Call it after Run has returned, or the groups
// replace what it deletes.
func (n Nodes) Delete(ctx context.Context, client kubernetes.Interface) error {
	if len(n.Groups) == 0 {
		return nil
	}
	names := make([]string, 0, len(n.Groups))
	for _, g := range n.Groups {
		names = append(names, g.Name)
	}
	req, err := labels.NewRequirement(model.NodeGroupLabel, selection.In, names)
	if err != nil {
		return fmt.Errorf("selecting the nodes of groups %v: %w", names, err)
	}
	selector := labels.NewSelector().Add(*req).String()
	nodes, err := client.CoreV1().Nodes().List(ctx, metav1.ListOptions{LabelSelector: selector})
	if err != nil {
		return fmt.Errorf("listing hollow nodes (%s): %w", selector, err)
	}
	var errs []error
	for _, node := range nodes.Items {
		if err := client.CoreV1().Nodes().Delete(ctx, node.Name, metav1.DeleteOptions{}); err != nil && !apierrors.IsNotFound(err) {
			errs = append(errs, fmt.Errorf("deleting hollow node %s: %w", node.Name, err))
		}
	}
	return errors.Join(errs...)
}
