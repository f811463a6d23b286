// Package kind is rollscope's registry of workload kinds: for each kind
// (Deployment, ReplicationController, StatefulSet, DaemonSet, Argo's
// Rollout) its names as
// kubectl spells them, its API resource, and one accessor (Workload) for
// what every layer asks of such an object. Parse is the one reader of
// `kind/NAME` and `kind NAME`; every argument, prompt and scenario target
// goes through it.
//
// The registry is pure: how an action reaches the API (typed clients) is the
// engine's, keyed by Kind. Adding a workload kind starts with one Entry here.
package kind

import (
	"strings"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"

	"rollscope/model/argo"
)

// Kind is a workload kind as kubectl names it in the singular
// ("statefulset"): the word of `statefulset/db`, of traces and of RBAC
// sentences. Kinds of things that are not workloads (a node, a pod) share
// the type but have no Entry.
type Kind string

// The workload kinds rollscope opens, rolls and acts on.
const (
	Deployment            Kind = "deployment"
	ReplicationController Kind = "replicationcontroller"
	StatefulSet           Kind = "statefulset"
	DaemonSet             Kind = "daemonset"
	// Rollout is Argo Rollouts' (argoproj.io), a custom resource.
	Rollout Kind = "rollout"
)

// Entry is what the registry knows of one workload kind.
type Entry struct {
	Kind Kind
	// Name is the API's kind ("StatefulSet"), as objects and events carry it.
	Name string
	// Plural is the API resource ("statefulsets").
	Plural string
	// Short is kubectl's short name ("sts"), as the API server's discovery
	// reports it; the fleet's KIND column shows it.
	Short string
	// GroupVersion is where the API serves the kind.
	GroupVersion schema.GroupVersion
	// Verbs are the actions the kind's view offers (verbs.go), in help
	// order; none for Deployments and ReplicationControllers, whose actions
	// are their own.
	Verbs []Verb
	// Custom names the project whose CRD and controller serve a custom
	// resource's kind ("Argo Rollouts"), "" for a built-in kind: a live
	// cluster serves it where that project is installed, the embedded
	// cluster does not serve it yet. Every loop over the registry that
	// serves or runs kinds in the embedded cluster skips it (Builtin).
	Custom string
}

// Builtin is every kind that is not a custom resource: the kinds every
// cluster serves, and the embedded cluster serves and runs.
func Builtin() []Entry {
	var out []Entry
	for _, e := range entries {
		if e.Custom == "" {
			out = append(out, e)
		}
	}
	return out
}

// Resource is the kind's API resource.
func (e Entry) Resource() schema.GroupVersionResource { return e.GroupVersion.WithResource(e.Plural) }

// names are the spellings kubectl accepts for the kind, lower case.
func (e Entry) names() []string { return []string{string(e.Kind), e.Plural, e.Short} }

// entries is the registry, in the order sentences list the kinds.
var entries = []Entry{
	{Kind: Deployment, Name: "Deployment", Plural: "deployments", Short: "deploy", GroupVersion: appsv1.SchemeGroupVersion},
	{Kind: ReplicationController, Name: "ReplicationController", Plural: "replicationcontrollers", Short: "rc", GroupVersion: corev1.SchemeGroupVersion},
	{Kind: StatefulSet, Name: "StatefulSet", Plural: "statefulsets", Short: "sts", GroupVersion: appsv1.SchemeGroupVersion,
		Verbs: []Verb{SetImage, SetEnv, Restart, Undo, Scale, Partition}},
	{Kind: DaemonSet, Name: "DaemonSet", Plural: "daemonsets", Short: "ds", GroupVersion: appsv1.SchemeGroupVersion,
		Verbs: []Verb{SetImage, SetEnv, Restart, Undo}},
	{Kind: Rollout, Name: "Rollout", Plural: "rollouts", Short: "ro", GroupVersion: argo.GroupVersion,
		Verbs: []Verb{Promote, PromoteFull, Abort, Retry, Pause, Resume, SetImage, Restart, Undo, Scale}, Custom: "Argo Rollouts"},
}

// All is every workload kind's entry.
func All() []Entry { return append([]Entry(nil), entries...) }

// Entry is the kind's registry entry; false for a kind that is not a
// workload (a node, a pod).
func (k Kind) Entry() (Entry, bool) {
	for _, e := range entries {
		if e.Kind == k {
			return e, true
		}
	}
	return Entry{}, false
}

// Resource is the kind's API resource (the zero value for a kind that is not
// a workload).
func (k Kind) Resource() schema.GroupVersionResource {
	e, _ := k.Entry()
	return e.Resource()
}

// ForResource is the entry of the kind served as gr, as a RESTMapper
// resolves it (group and plural resource).
func ForResource(gr schema.GroupResource) (Entry, bool) {
	for _, e := range entries {
		if e.GroupVersion.Group == gr.Group && e.Plural == gr.Resource {
			return e, true
		}
	}
	return Entry{}, false
}

// ForName is the entry of the API kind name ("StatefulSet").
func ForName(name string) (Entry, bool) {
	for _, e := range entries {
		if e.Name == name {
			return e, true
		}
	}
	return Entry{}, false
}

// Lookup resolves a kind's name as kubectl reads it: singular, plural or
// short name, in any case, optionally qualified by its API group
// (`deployments.apps`) or version and group (`sts.v1.apps`).
func Lookup(name string) (Kind, bool) {
	name = strings.ToLower(name)
	base, qualifier, qualified := strings.Cut(name, ".")
	for _, e := range entries {
		for _, n := range e.names() {
			if n != base {
				continue
			}
			if !qualified || qualifier == e.GroupVersion.Group && e.GroupVersion.Group != "" ||
				qualifier == e.GroupVersion.Version+"."+e.GroupVersion.Group && e.GroupVersion.Group != "" {
				return e.Kind, true
			}
		}
	}
	return "", false
}
