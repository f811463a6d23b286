package action

import "rollscope/model/kind"

// Name is an action's name: its key in the config file (`keys: {set-image:
// ["i"]}`), in permission denials and in traces.
type Name string

// The actions, by the object they change.
const (
	// Deployment rollouts.
	SetImage Name = "set-image"
	SetEnv   Name = "set-env"
	Scale    Name = "scale"
	Restart  Name = "restart"
	Pause    Name = "pause"
	Resume   Name = "resume"
	Undo     Name = "undo"
	Abort    Name = "abort"

	// Guided canaries of Deployments (model/action/canary.go).
	Canary     Name = "canary"
	Promote    Name = "promote"
	PromoteAll Name = "promote-all"

	// Nodes and node-group rolls.
	Cordon    Name = "cordon"
	Uncordon  Name = "uncordon"
	Drain     Name = "drain"
	RollGroup Name = "roll-group"
	NextStep  Name = "next-step"
	PauseRoll Name = "pause-roll"
	StopRoll  Name = "stop-roll"

	// ReplicationController rolling updates.
	RCUpdate Name = "rc-update"
	RCAbort  Name = "rc-abort"
	// Pods: reading, not changing.
	Logs Name = "logs"
)

// Object is the kind of object an action changes, and so whose permissions
// it needs: a workload kind of the registry, or a node, a node group or a
// pod. It is kind.Kind; the On names of workload kinds are the registry's.
type Object = kind.Kind

const (
	OnDeployment            = kind.Deployment
	OnNode                  = kind.Kind("node")
	OnNodeGroup             = kind.Kind("nodegroup")
	OnReplicationController = kind.ReplicationController
	OnPod                   = kind.Kind("pod")
	OnStatefulSet           = kind.StatefulSet
	OnDaemonSet             = kind.DaemonSet
)

// Help groups: the help overlay's column titles for the actions.
const (
	GroupRollout = "Rollout"
	GroupNodes   = "Nodes"
	GroupRC      = "ReplicationController"
	GroupPods    = "Pod"
)

// Permission is one verb on one resource, as a SelfSubjectAccessReview asks
// it. ClusterWide permissions are asked with no namespace.
type Permission struct {
	Verb, Group, Resource, Subresource string
	ClusterWide                        bool
}

// String writes the permission as `kubectl auth can-i` takes it:
// "patch deployments.apps/scale" (resource.group/subresource).
func (p Permission) String() string {
	r := p.Resource
	if p.Group != "" {
		r += "." + p.Group
	}
	if p.Subresource != "" {
		r += "/" + p.Subresource
	}
	return p.Verb + " " + r
}

// Spec is everything rollscope knows about an action before it is taken.
type Spec struct {
	Name Name
	// Keys are the default keys; Help says what the action does in the
	// help overlay; Group is its help column.
	Keys  []string
	Help  string
	Group string
	// On is the kind of object it changes.
	On Object
	// Verb is the registry's verb of an action a kind's entry lists
	// (spec_workloads.go); "" for the actions of their own.
	Verb kind.Verb
	// Needs are the permissions the request takes: the reads made before
	// writing, the write itself, and — where the console's own controller
	// carries the request out on a live cluster — what that controller
	// sends as the same user.
	Needs []Permission
	// Writes is set for every action that changes a cluster; --read-only
	// disables them all.
	Writes bool
	// StartsRollout is set when the action changes the pod template (or
	// goes back to another), so a rollout follows.
	StartsRollout bool
	// Forecast is set when the confirmation rehearses the action on a copy
	// and shows what the rollout will do — or, for a StatefulSet's scale,
	// which pods it creates or removes, in which order; for a Rollout's,
	// which rollscope cannot rehearse yet, it says so in the forecast's
	// place.
	Forecast bool
	// Title names the action's dialog, before what it acts on ("Pause
	// rollout · deployment/web").
	Title string
	// Does is what the action does once sent, in the confirmation's plan,
	// where that is the same whatever the object; "" where the plan is
	// worked out from the object.
	Does string
	// Canary is set for a guided canary's actions, which the canary
	// dialog asks for.
	Canary bool
	// Argo is set for the verbs of a kind Argo's controller runs (a
	// Rollout): engine/argo sends them as Argo's kubectl plugin does.
	Argo bool
}

var (
	getDeployments   = Permission{Verb: "get", Group: "apps", Resource: "deployments"}
	patchDeployments = Permission{Verb: "patch", Group: "apps", Resource: "deployments"}
	patchScale       = Permission{Verb: "patch", Group: "apps", Resource: "deployments", Subresource: "scale"}
	updateDeployment = Permission{Verb: "update", Group: "apps", Resource: "deployments"}
	listReplicaSets  = Permission{Verb: "list", Group: "apps", Resource: "replicasets"}

	getNodes    = Permission{Verb: "get", Resource: "nodes", ClusterWide: true}
	listNodes   = Permission{Verb: "list", Resource: "nodes", ClusterWide: true}
	updateNodes = Permission{Verb: "update", Resource: "nodes", ClusterWide: true}
	evictPods   = Permission{Verb: "create", Resource: "pods", Subresource: "eviction", ClusterWide: true}
	// DeleteNodes is what a node-group roll also needs when it deletes the
	// drained Node objects (--delete-nodes on a live cluster).
	DeleteNodes = Permission{Verb: "delete", Resource: "nodes", ClusterWide: true}

	getRCs    = Permission{Verb: "get", Resource: "replicationcontrollers"}
	updateRCs = Permission{Verb: "update", Resource: "replicationcontrollers"}
	createRCs = Permission{Verb: "create", Resource: "replicationcontrollers"}
	deleteRCs = Permission{Verb: "delete", Resource: "replicationcontrollers"}
	listPods  = Permission{Verb: "list", Resource: "pods"}
	updatePod = Permission{Verb: "update", Resource: "pods"}
	getPodLog = Permission{Verb: "get", Resource: "pods", Subresource: "log"}
)

// specs is the table, in help order.
var specs = []Spec{
	{Name: SetImage, Keys: []string{"i"}, Help: "set image", Group: GroupRollout, On: OnDeployment,
		Needs: []Permission{getDeployments, patchDeployments}, Writes: true, StartsRollout: true, Forecast: true, Title: "Set image"},
	{Name: SetEnv, Keys: []string{"e"}, Help: "set env", Group: GroupRollout, On: OnDeployment,
		Needs: []Permission{getDeployments, patchDeployments}, Writes: true, StartsRollout: true, Title: "Set env"},
	{Name: Scale, Keys: []string{"s"}, Help: "scale", Group: GroupRollout, On: OnDeployment,
		Needs: []Permission{patchScale}, Writes: true, Title: "Scale"},
	{Name: Restart, Keys: []string{"R"}, Help: "restart", Group: GroupRollout, On: OnDeployment,
		Needs: []Permission{getDeployments, patchDeployments}, Writes: true, StartsRollout: true, Title: "Restart",
		Does: "stamps the pod template with kubectl.kubernetes.io/restartedAt: every pod is replaced, as a rollout"},
	{Name: Pause, Keys: []string{"p"}, Help: "pause rollout", Group: GroupRollout, On: OnDeployment,
		Needs: []Permission{getDeployments, patchDeployments}, Writes: true, Title: "Pause rollout",
		Does: "holds the rollout where it is: no ReplicaSet is scaled until resumed"},
	{Name: Resume, Keys: []string{"r"}, Help: "resume rollout", Group: GroupRollout, On: OnDeployment,
		Needs: []Permission{getDeployments, patchDeployments}, Writes: true, Title: "Resume rollout"},
	{Name: Undo, Keys: []string{"u"}, Help: "undo to revision", Group: GroupRollout, On: OnDeployment,
		Needs: []Permission{getDeployments, listReplicaSets, patchDeployments}, Writes: true, StartsRollout: true, Forecast: true, Title: "Undo to a revision"},
	{Name: Abort, Keys: []string{"x"}, Help: "abort rollout", Group: GroupRollout, On: OnDeployment,
		Needs: []Permission{getDeployments, listReplicaSets, updateDeployment}, Writes: true, StartsRollout: true, Forecast: true, Title: "Abort rollout"},
	canarySpec(Canary, "K", "guided canary", true),
	canarySpec(Promote, "P", "promote canary (next step)", false),
	canarySpec(PromoteAll, "A", "promote canary to 100%", false),

	{Name: Cordon, Keys: []string{"c"}, Help: "cordon node", Group: GroupNodes, On: OnNode,
		Needs: []Permission{getNodes, updateNodes}, Writes: true, Title: "Cordon",
		Does: "marks the nodes unschedulable: running pods stay, new pods go elsewhere"},
	{Name: Uncordon, Keys: []string{"C"}, Help: "uncordon node", Group: GroupNodes, On: OnNode,
		Needs: []Permission{getNodes, updateNodes}, Writes: true, Title: "Uncordon",
		Does: "marks the nodes schedulable again"},
	{Name: Drain, Keys: []string{"d"}, Help: "drain node", Group: GroupNodes, On: OnNode,
		Needs: []Permission{getNodes, updateNodes, evictPods}, Writes: true, Title: "Drain",
		Does: "cordons, then evicts through the Eviction API (retried every 5 s while a PodDisruptionBudget refuses); a refused or timed-out drain leaves the node cordoned and says why"},
	{Name: RollGroup, Keys: []string{"D"}, Help: "roll node group", Group: GroupNodes, On: OnNodeGroup,
		Needs: []Permission{listNodes, updateNodes, evictPods}, Writes: true, Title: "Roll node group"},
	{Name: NextStep, Keys: []string{"n"}, Help: "next node (stepped roll)", Group: GroupNodes, On: OnNodeGroup,
		Needs: []Permission{listNodes, updateNodes}, Writes: true},
	{Name: PauseRoll, Keys: []string{"space"}, Help: "pause/resume roll in Nodes", Group: GroupNodes, On: OnNodeGroup,
		Needs: []Permission{listNodes, updateNodes}, Writes: true},
	{Name: StopRoll, Keys: []string{"x"}, Help: "stop roll in Nodes", Group: GroupNodes, On: OnNodeGroup,
		Needs: []Permission{listNodes, updateNodes}, Writes: true, Title: "Stop the roll",
		Does: "drains in flight are cancelled and their nodes stay cordoned; drained nodes stay cordoned; the other nodes are left alone"},

	// The console's rolling-update controller carries the update out as
	// the same user: it creates, scales and deletes controllers and
	// relabels their pods.
	{Name: RCUpdate, Keys: []string{"i"}, Help: "rolling update (RC view)", Group: GroupRC, On: OnReplicationController,
		Needs: []Permission{getRCs, updateRCs, createRCs, deleteRCs, listPods, updatePod}, Writes: true, StartsRollout: true},
	{Name: RCAbort, Keys: []string{"x"}, Help: "roll back the update (RC view)", Group: GroupRC, On: OnReplicationController,
		Needs: []Permission{getRCs, updateRCs, deleteRCs, listPods, updatePod}, Writes: true},
	// Reads only: --read-only leaves it on.
	{Name: Logs, Keys: []string{"l"}, Help: "pod logs (on a ReplicaSet: its newest pod)", Group: GroupPods, On: OnPod,
		Needs: []Permission{getPodLog}},
}

// Specs are every action, in help order. The slice is a copy.
func Specs() []Spec {
	out := make([]Spec, len(specs))
	copy(out, specs)
	return out
}

// Lookup finds an action's spec by name.
func Lookup(n Name) (Spec, bool) {
	for _, s := range specs {
		if s.Name == n {
			return s, true
		}
	}
	return Spec{}, false
}

// Of are the names of the actions on one kind of object, in help order.
func Of(on ...Object) []Name {
	var out []Name
	for _, s := range specs {
		for _, o := range on {
			if s.On == o {
				out = append(out, s.Name)
			}
		}
	}
	return out
}
