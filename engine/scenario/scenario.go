package scenario

import (
	"time"

	"k8s.io/apimachinery/pkg/runtime"

	"rollscope/engine/analysisrun"
	"rollscope/engine/kubelet"
	"rollscope/engine/nodegroup"
	"rollscope/engine/noderoll"
	"rollscope/model/kind"
)

// Scenario is a parsed and validated scenario file.
type Scenario struct {
	// Name defaults to the file name without its extension.
	Name string
	// Namespace holds the objects that do not name one, and is where action
	// targets are looked up unless the action names another (namespace:).
	// Defaults to "default".
	Namespace string
	// Seed makes jitter reproducible: the same seed gives the same trace.
	Seed       int64
	NodeGroups []nodegroup.Group
	// Images are in file order; the first matching rule wins.
	Images []kubelet.ImageRule
	// Objects are typed (*appsv1.Deployment, *corev1.ReplicationController,
	// ...) in file order, with the namespace filled in for namespaced kinds.
	Objects []runtime.Object
	// Metrics are what each AnalysisTemplate metric measures, every one
	// of them covered (the embedded cluster asks no provider).
	Metrics []analysisrun.Series
	// Actions are sorted by At; actions at the same time keep file order.
	Actions []Action

	// Clusters, when the file has clusters:, are the named clusters it
	// runs side by side on one virtual clock, each a scenario of its own
	// (its Cluster set, Name and Seed the file's); the scenario itself
	// then has no objects or actions. None means one cluster, as before.
	Clusters []*Scenario
	// Cluster is the name of this cluster of its file's clusters:.
	Cluster string
	// File and ClustersLine are where the scenario was read and its
	// clusters: written, for errors about them.
	File         string
	ClustersLine int
}

// Action kinds, as spelled in scenario files.
const (
	ActionSetImage  = "setImage"
	ActionSetEnv    = "setEnv"
	ActionPause     = "pause"
	ActionResume    = "resume"
	ActionUndo      = "undo"
	ActionAbort     = "abort"
	ActionScale     = "scale"
	ActionRestart   = "restart"
	ActionDrain     = "drain"
	ActionRollNodes = "rollNodes"
	ActionNextNode  = "nextNode"
	ActionCanary    = "canary"
	ActionPromote   = "promote"
)

// Target names the workload an action applies to.
type Target struct {
	// Kind is the workload's kind; scenario files spell it as kind.Parse
	// reads it (deploy/NAME, rc/NAME, sts/NAME …).
	Kind kind.Kind
	Name string
	// Namespace is set when the action names one other than the
	// scenario's (namespace: beside target); "" is the scenario's.
	Namespace string
}

// String is the kubectl-style "kind/name" form used in traces.
func (t Target) String() string {
	if t.Kind == "" && t.Name == "" {
		return ""
	}
	return string(t.Kind) + "/" + t.Name
}

// Action is one timed step of a scenario. Only the fields of its Kind are set.
type Action struct {
	// At is virtual time since the start of the run.
	At time.Duration
	// Line is where the action is written, for errors reported at run time.
	Line int
	Kind string // one of the Action constants

	// Target is set for every kind but drain, rollNodes and nextNode.
	Target Target
	// Container is set for setImage and setEnv. When the file leaves it out
	// and the target's template has a single container, it is filled in.
	Container string
	// Image is the new image of Container (setImage).
	Image string
	// Env holds the variables to set on Container (setEnv). An empty value
	// removes the variable, as `kubectl set env NAME-` does; a variable
	// cannot be set to the empty string from a scenario.
	Env map[string]string
	// ToRevision is the revision to roll back to (undo); 0 means the
	// previous one, as `kubectl rollout undo` does.
	ToRevision int64
	// Replicas is the new size (scale).
	Replicas int32
	// Partition is the ordinal a StatefulSet's rolling update is held at
	// (partition).
	Partition int32
	// Node is the node to drain, "<group>-<index>" (drain).
	Node string
	// Group is the node group to roll (rollNodes), or whose stepped roll
	// takes its next node (nextNode).
	Group string
	// Roll holds the options of a rollNodes action; unset surge and
	// unavailability come from the group.
	Roll noderoll.Options
	// Canary is a canary's steps, holds and onFailure (canary); Image or
	// Env is its change. Full promotes a canary straight to 100% (promote).
	Canary Canary
	Full   bool
}

// Canary is a scripted canary's plan as written: steps are pod counts or
// percentages, holds one for every step before 100% or one each.
type Canary struct {
	Steps, Holds []string
	OnFailure    string
	// Analysis names the AnalysisTemplates whose metrics gate each step.
	Analysis []string
}
