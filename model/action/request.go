package action

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"rollscope/model"
)

// ErrNothingToDo marks an action that sent nothing because the object is
// already as asked (already paused, already at that revision).
var ErrNothingToDo = errors.New("nothing to do")

// Request is one action as a dialog or a scenario line built it. Which
// fields count depends on Action; the rest stay zero.
type Request struct {
	Action Name
	// Context is the kubeconfig context the request goes to when the
	// console shows several: Kubectl then names it with --context.
	Context   string
	Namespace string
	// Name is the object the action changes: the deployment, the
	// ReplicationController, or the node group of a roll.
	Name string
	// Nodes are the nodes cordon, uncordon and drain act on, in order.
	Nodes []string

	// Container is the container set image, set env and an RC update
	// change.
	Container, Image string
	// Env is set env's NAME=value, or NAME- to remove NAME (kubectl's
	// syntax).
	Env      string
	Replicas int32
	// Revision is undo's target revision.
	Revision int64
	// ResumeFirst resumes a paused deployment before undoing, the way out
	// of kubectl's refusal to roll back a paused one.
	ResumeFirst bool

	Drain DrainOptions
	Roll  RollSettings
	// ResumeRoll makes a pause-roll resume the group's paused roll (the
	// key toggles).
	ResumeRoll bool
	// RCUpdate is the rolling update an rc-update asks for.
	RCUpdate model.RCUpdateRequest
	// Canary is a canary's steps, or the step a promote was pressed on.
	Canary CanarySettings
	// Partition is the ordinal sts-partition holds a StatefulSet's
	// rolling update at.
	Partition int32
}

// Spec is the request's action's spec.
func (r Request) Spec() Spec {
	s, _ := Lookup(r.Action)
	return s
}

// Object is how kubectl names what the request changes: deployment/web,
// node/a,b, nodegroup/nodes, replicationcontroller/foo.
func (r Request) Object() string {
	if o, ok := workloadObject(r); ok {
		return o
	}
	switch r.Spec().On {
	case OnNode:
		return "node/" + strings.Join(r.Nodes, ",")
	case OnNodeGroup:
		return "nodegroup/" + r.Name
	case OnReplicationController:
		return "replicationcontroller/" + r.Name
	}
	return "deployment/" + r.Name
}

// EnvChange splits Env into the variable's name and value; remove is true
// for NAME-.
func (r Request) EnvChange() (name, value string, remove bool, err error) {
	if n, ok := strings.CutSuffix(r.Env, "-"); ok && !strings.Contains(r.Env, "=") {
		return n, "", true, nil
	}
	name, value, ok := strings.Cut(r.Env, "=")
	if !ok {
		return "", "", false, fmt.Errorf("write NAME=value to set a variable, or NAME- to remove it")
	}
	return name, value, false, nil
}

// ChangeCause is what set image records in kubernetes.io/change-cause.
func ChangeCause(deployment, container, image string) string {
	return fmt.Sprintf("rollscope set image deployment/%s %s=%s", deployment, container, image)
}

// Kubectl is the kubectl command that does the same, shown in the
// confirmation so the operator knows exactly what will be sent; "" for
// actions kubectl has no command for.
func (r Request) Kubectl() string {
	line := r.kubectl()
	if r.Context == "" || !strings.HasPrefix(line, "kubectl ") {
		return line
	}
	// Every command of the line: undo may resume first.
	return strings.ReplaceAll(line, "kubectl ", "kubectl --context "+r.Context+" ")
}

func (r Request) kubectl() string {
	if k, ok := workloadKubectl(r); ok {
		return k
	}
	d := "deployment/" + r.Name
	ns := ""
	if r.Namespace != "" {
		ns = " -n " + r.Namespace
	}
	switch r.Action {
	case SetImage:
		return fmt.Sprintf("kubectl%s set image %s %s=%s", ns, d, r.Container, r.Image)
	case SetEnv:
		return fmt.Sprintf("kubectl%s set env %s -c %s %s", ns, d, r.Container, r.Env)
	case Scale:
		return fmt.Sprintf("kubectl%s scale %s --replicas=%d", ns, d, r.Replicas)
	case Restart:
		return fmt.Sprintf("kubectl%s rollout restart %s", ns, d)
	case Pause:
		return fmt.Sprintf("kubectl%s rollout pause %s", ns, d)
	case Resume:
		return fmt.Sprintf("kubectl%s rollout resume %s", ns, d)
	case Undo:
		undo := fmt.Sprintf("kubectl%s rollout undo %s --to-revision=%d", ns, d, r.Revision)
		if r.ResumeFirst {
			return fmt.Sprintf("kubectl%s rollout resume %s && ", ns, d) + undo
		}
		return undo
	case Abort:
		return "no kubectl command does this: one update of " + d + ", written with the resourceVersion read"
	case Canary, Promote, PromoteAll:
		return r.canaryKubectl()
	case Cordon, Uncordon:
		return "kubectl " + string(r.Action) + " " + strings.Join(r.Nodes, " ")
	case Drain:
		var cmds []string
		for _, n := range r.Nodes {
			cmds = append(cmds, r.Drain.Kubectl(n))
		}
		return strings.Join(cmds, " && ")
	}
	return ""
}

// Summary names the request in a few words, for the toast and the
// timeline.
func (r Request) Summary() string {
	nodes := strings.Join(r.Nodes, ", ")
	switch r.Action {
	case SetImage:
		return "set image " + r.Container + "=" + r.Image
	case SetEnv:
		return "set env " + r.Container + " " + r.Env
	case Scale:
		return "scale to " + strconv.Itoa(int(r.Replicas))
	case Restart:
		return "restart"
	case Pause:
		return "pause"
	case Resume:
		return "resume"
	case Undo:
		if r.ResumeFirst {
			return "resume and undo to revision " + strconv.FormatInt(r.Revision, 10)
		}
		return "undo to revision " + strconv.FormatInt(r.Revision, 10)
	case Abort:
		return "abort"
	case Canary, Promote, PromoteAll:
		return r.canarySummary()
	case Cordon:
		return "cordon " + nodes
	case Uncordon:
		return "uncordon " + nodes
	case Drain:
		return "drain " + nodes
	case RollGroup:
		return "roll group " + r.Name
	case NextStep:
		return "next node of the roll of group " + r.Name
	case PauseRoll:
		if r.ResumeRoll {
			return "resume the roll of group " + r.Name
		}
		return "pause the roll of group " + r.Name
	case StopRoll:
		return "stop the roll of group " + r.Name
	case RCUpdate:
		return "rolling update of " + r.Name + " to " + r.RCUpdate.Image
	case RCAbort:
		return "roll back the update of " + r.Name
	}
	if s, ok := workloadSummary(r); ok {
		return s
	}
	return string(r.Action)
}

// Container is one container of a pod template, as the set image and set
// env dialogs offer it.
type Container struct {
	Name, Image string
	Env         []string // NAME=value, in order
}
