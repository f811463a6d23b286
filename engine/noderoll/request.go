package noderoll

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
	"k8s.io/client-go/kubernetes"

	"rollscope/engine/control"
	"rollscope/engine/drain"
	"rollscope/engine/nodegroup"
	"rollscope/model"
	"rollscope/model/action"
)

// TaintScheduledForUpdate is kops' taint on the nodes a roll will replace,
// so that new pods prefer other nodes.
var TaintScheduledForUpdate = corev1.Taint{Key: "kops.k8s.io/scheduled-for-update", Effect: corev1.TaintEffectPreferNoSchedule}

// Defaults, as kops rolling-update has them.
const (
	DefaultInterval          = 15 * time.Second
	DefaultValidationTimeout = 15 * time.Minute
	DefaultDrainTimeout      = 15 * time.Minute
	// ValidateTick is how often a failing validation is tried again.
	ValidateTick = 10 * time.Second
)

// Options of a roll. Unset surge and unavailability come from the group's
// own settings, then kops' defaults.
type Options struct {
	MaxSurge       *intstr.IntOrString `json:"maxSurge,omitempty"`
	MaxUnavailable *intstr.IntOrString `json:"maxUnavailable,omitempty"`
	// Step pauses after every node until Continue (kops --interactive).
	Step bool `json:"step,omitempty"`
	// Interval is the wait after terminating a node, before validating.
	Interval drain.Duration `json:"interval,omitempty"`
	// ValidationTimeout fails the roll when the cluster does not validate
	// for this long.
	ValidationTimeout drain.Duration `json:"validationTimeout,omitempty"`
	// DrainTimeout fails a node's drain after this long.
	DrainTimeout drain.Duration `json:"drainTimeout,omitempty"`
	// DeleteNodes deletes drained Node objects on a cluster whose groups
	// rollscope does not run (a live cluster). The embedded cluster always
	// terminates them: its node groups replace them.
	DeleteNodes bool `json:"deleteNodes,omitempty"`
}

// spec is the roll annotation: the options and what the roll started from.
type spec struct {
	Options
	ID    string `json:"id"`
	Group string `json:"group"`
	Role  string `json:"role"`
	// Size is how many attached nodes the group had: validation waits until
	// it has as many Ready again.
	Size int `json:"size"`
	// Count is how many nodes the roll replaces.
	Count int `json:"count"`
}

func (s spec) interval() time.Duration {
	if s.Interval > 0 {
		return time.Duration(s.Interval)
	}
	return DefaultInterval
}

func (s spec) validationTimeout() time.Duration {
	if s.ValidationTimeout > 0 {
		return time.Duration(s.ValidationTimeout)
	}
	return DefaultValidationTimeout
}

func (s spec) drainOptions() drain.Options {
	t := s.DrainTimeout
	if t == 0 {
		t = drain.Duration(DefaultDrainTimeout)
	}
	// kops drains with --force --ignore-daemonsets --delete-emptydir-data.
	return drain.Options{Force: true, IgnoreDaemonSets: true, DeleteEmptyDirData: true, Timeout: t}
}

func parseSpec(s string) (spec, error) {
	var sp spec
	if err := json.Unmarshal([]byte(s), &sp); err != nil {
		return sp, fmt.Errorf("roll annotation %q is not valid JSON: %w", s, err)
	}
	return sp, nil
}

// ErrNoGroup is returned for a group no node belongs to.
var ErrNoGroup = errors.New("no such node group")

// Request starts a roll of group: it checks the settings, picks the
// group's outdated nodes (marked kops.k8s.io/needs-update) and writes the
// roll on them. The controller does the rest.
func Request(ctx context.Context, c kubernetes.Interface, group string, o Options, now time.Time) error {
	nodes, err := groupNodes(ctx, c, group)
	if err != nil {
		return err
	}
	if active, state := activeRoll(nodes); active {
		return fmt.Errorf("cannot roll group %q: a roll of it is already %s (continue it with n, pause it with space or stop it with x)", group, state)
	}
	attached := 0
	var outdated []*corev1.Node
	role := nodegroup.RoleNode
	for _, n := range nodes {
		role = roleOf(n)
		if !model.NodeDetached(n) {
			attached++
		}
		if _, ok := n.Annotations[model.NeedsUpdateAnnotation]; ok {
			outdated = append(outdated, n)
		}
	}
	s, err := Resolve(o.MaxSurge, o.MaxUnavailable, attached)
	if err != nil {
		return fmt.Errorf("cannot roll group %q: %w", group, err)
	}
	// Only when both are given: one left out may come from the group's own
	// settings, which the controller resolves when the roll starts (and
	// fails the roll, saying why, if it still comes to nothing).
	if o.MaxSurge != nil && o.MaxUnavailable != nil && s.MaxSurge == 0 && s.MaxUnavailable == 0 {
		return fmt.Errorf("cannot roll group %q: maxSurge and maxUnavailable are both 0, so no node could ever be replaced (raise one of them)", group)
	}
	if len(outdated) == 0 {
		return fmt.Errorf("group %q: no node needs an update (none is marked %s): %w", group, model.NeedsUpdateAnnotation, action.ErrNothingToDo)
	}
	sp := spec{Options: o, ID: now.UTC().Format(time.RFC3339Nano), Group: group, Role: role, Size: attached, Count: len(outdated)}
	raw, _ := json.Marshal(sp) // plain fields always marshal
	for _, n := range outdated {
		err := annotate(ctx, c, n.Name, func(ann map[string]string) bool {
			ann[model.RollAnnotation] = string(raw)
			ann[model.RollStateAnnotation] = model.RollRunning
			delete(ann, model.RollMessageAnnotation)
			delete(ann, model.RollNodeAnnotation)
			return true
		})
		if err != nil {
			return fmt.Errorf("cannot roll group %q: %w — the roll is only partly requested; request it again", group, err)
		}
	}
	return nil
}

// Pause stops a running roll from starting more nodes; the nodes in flight finish.
func Pause(ctx context.Context, c kubernetes.Interface, group string) error {
	return transition(ctx, c, group, "pause", model.RollPaused, model.RollRunning, model.RollWaiting)
}

// Resume lets a paused roll go on.
func Resume(ctx context.Context, c kubernetes.Interface, group string) error {
	return transition(ctx, c, group, "resume", model.RollRunning, model.RollPaused)
}

// Continue lets a stepped roll take its next node (the console's n); it
// also resumes a paused roll.
func Continue(ctx context.Context, c kubernetes.Interface, group string) error {
	return transition(ctx, c, group, "continue", model.RollRunning, model.RollWaiting, model.RollPaused, model.RollRunning)
}

// Stop ends a roll: drained nodes stay cordoned, drains in flight are
// cancelled (their nodes stay cordoned), the other nodes are left alone.
func Stop(ctx context.Context, c kubernetes.Interface, group string) error {
	return transition(ctx, c, group, "stop", model.RollStopped, model.RollRunning, model.RollPaused, model.RollWaiting)
}

func transition(ctx context.Context, c kubernetes.Interface, group, verb, to string, from ...string) error {
	nodes, err := groupNodes(ctx, c, group)
	if err != nil {
		return err
	}
	var inRoll []*corev1.Node
	for _, n := range nodes {
		if _, ok := n.Annotations[model.RollAnnotation]; ok {
			inRoll = append(inRoll, n)
		}
	}
	if len(inRoll) == 0 {
		return fmt.Errorf("cannot %s the roll of group %q: it has no roll (start one with D)", verb, group)
	}
	state := inRoll[0].Annotations[model.RollStateAnnotation]
	allowed := false
	for _, f := range from {
		allowed = allowed || state == f
	}
	if !allowed {
		return fmt.Errorf("cannot %s the roll of group %q: it is %s", verb, group, state)
	}
	for _, n := range inRoll {
		err := annotate(ctx, c, n.Name, func(ann map[string]string) bool {
			if _, ok := ann[model.RollAnnotation]; !ok {
				return false
			}
			ann[model.RollStateAnnotation] = to
			return true
		})
		if err != nil {
			return fmt.Errorf("cannot %s the roll of group %q: %w", verb, group, err)
		}
	}
	return nil
}

// groupNodes lists a group's nodes through the API, in name order.
func groupNodes(ctx context.Context, c kubernetes.Interface, group string) ([]*corev1.Node, error) {
	all, err := c.CoreV1().Nodes().List(ctx, metav1.ListOptions{})
	if err != nil {
		return nil, fmt.Errorf("cannot roll group %q: list the nodes: %w", group, err)
	}
	var nodes []*corev1.Node
	groups := map[string]bool{}
	for i := range all.Items {
		n := &all.Items[i]
		g := n.Labels[model.NodeGroupLabel]
		if g != "" {
			groups[g] = true
		}
		if g == group && group != "" {
			nodes = append(nodes, n)
		}
	}
	if len(nodes) == 0 {
		names := make([]string, 0, len(groups))
		for g := range groups {
			names = append(names, g)
		}
		sort.Strings(names)
		known := strings.Join(names, ", ")
		if known == "" {
			known = "no node carries " + model.NodeGroupLabel
		}
		return nil, fmt.Errorf("node group %q has no nodes (groups: %s): %w", group, known, ErrNoGroup)
	}
	sort.Slice(nodes, func(i, j int) bool { return nodes[i].Name < nodes[j].Name })
	return nodes, nil
}

// activeRoll reports whether some node of the list is in a roll that has
// not ended, and its state.
func activeRoll(nodes []*corev1.Node) (bool, string) {
	for _, n := range nodes {
		if _, ok := n.Annotations[model.RollAnnotation]; !ok {
			continue
		}
		if s := n.Annotations[model.RollStateAnnotation]; model.RollActive(s) {
			return true, s
		}
	}
	return false, ""
}

// roleOf reads a node's kops role from its node-role label.
func roleOf(n *corev1.Node) string {
	if _, ok := n.Labels["node-role.kubernetes.io/control-plane"]; ok {
		return nodegroup.RoleControlPlane
	}
	if _, ok := n.Labels["node-role.kubernetes.io/master"]; ok {
		return nodegroup.RoleMaster
	}
	if _, ok := n.Labels["node-role.kubernetes.io/api-server"]; ok {
		return nodegroup.RoleAPIServer
	}
	return nodegroup.RoleNode
}

// annotate changes a node's annotations (change returns false to leave the
// node as it is), retrying on conflicts.
func annotate(ctx context.Context, c kubernetes.Interface, node string, change func(map[string]string) bool) error {
	_, err := annotated(ctx, c, node, change)
	return err
}

// annotated is annotate that also gives the node as stored after the
// change, nil when nothing changed.
func annotated(ctx context.Context, c kubernetes.Interface, node string, change func(map[string]string) bool) (*corev1.Node, error) {
	var stored *corev1.Node
	err := control.RetryOnConflict(func() error {
		n, err := c.CoreV1().Nodes().Get(ctx, node, metav1.GetOptions{})
		if err != nil {
			return fmt.Errorf("read node %s: %w", node, err)
		}
		if n.Annotations == nil {
			n.Annotations = map[string]string{}
		}
		if !change(n.Annotations) {
			return nil
		}
		if stored, err = c.CoreV1().Nodes().Update(ctx, n, metav1.UpdateOptions{}); err != nil {
			return fmt.Errorf("write node %s: %w", node, err)
		}
		return nil
	})
	return stored, err
}
