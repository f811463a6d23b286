package connect

import (
	"errors"
	"fmt"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"k8s.io/apimachinery/pkg/util/validation"
	"k8s.io/client-go/discovery"
	"k8s.io/client-go/discovery/cached/memory"
	"k8s.io/client-go/restmapper"

	"rollscope/model/kind"
)

// Kinds resolves the kind of a `kind/NAME` the way kubectl does on a live
// cluster: through the server's discovery, with its short names (a CRD's
// own shortNames reach it this way), then to the registry's entry for the
// resource found. The embedded API answers the same discovery.
type Kinds struct {
	mapper interface {
		ResourceFor(schema.GroupVersionResource) (schema.GroupVersionResource, error)
	}
}

// NewKinds reads discovery once, lazily, and keeps it in memory.
func NewKinds(d discovery.DiscoveryInterface) *Kinds {
	cached := memory.NewMemCacheClient(d)
	return &Kinds{mapper: restmapper.NewShortcutExpander(restmapper.NewDeferredDiscoveryRESTMapper(cached), cached, func(string) {})}
}

// Resolve is the workload kind the server serves as word ("sts",
// "statefulsets.apps", "StatefulSet"); an error names the word when the
// server serves no such resource, or one rollscope does not open.
func (k *Kinds) Resolve(word string) (kind.Kind, error) {
	gvr, gr := schema.ParseResourceArg(strings.ToLower(word))
	in := gr.WithVersion("")
	if gvr != nil {
		in = *gvr
	}
	found, err := k.mapper.ResourceFor(in)
	if err != nil && gvr != nil {
		// "statefulsets.v1.apps" may also be a resource in group "v1.apps".
		found, err = k.mapper.ResourceFor(gr.WithVersion(""))
	}
	if err != nil {
		if k, ok := kind.Lookup(word); ok {
			if e, _ := k.Entry(); e.Custom != "" {
				return "", &NoCustomError{Entry: e}
			}
		}
		return "", fmt.Errorf("%q: %w: %v", word, ErrNotServed, err)
	}
	e, ok := kind.ForResource(found.GroupResource())
	if !ok {
		return "", &NotShownError{Word: word, Resource: found.GroupResource()}
	}
	return e.Kind, nil
}

// KindResolver resolves the kind word of a `kind/NAME` argument: Kinds on a
// live cluster, Registry on the embedded one.
type KindResolver interface {
	Resolve(word string) (kind.Kind, error)
}

// Registry resolves kind words with the registry alone: the embedded
// cluster serves and runs exactly the registry's kinds, Argo's Rollouts
// too.
type Registry struct{}

// Resolve is the registry's kind for word, or ErrNotServed.
func (Registry) Resolve(word string) (kind.Kind, error) {
	if k, ok := kind.Lookup(word); ok {
		return k, nil
	}
	return "", ErrNotServed
}

// OpensKinds are the kinds an argument may name, for error sentences:
// "deployments (deploy/NAME or NAME), ReplicationControllers (rc/NAME), …".
var OpensKinds = opensKinds()

func opensKinds() string {
	var parts []string
	for _, e := range kind.All() {
		if e.Kind == kind.Deployment {
			parts = append(parts, e.Plural+" ("+e.Short+"/NAME or NAME)")
			continue
		}
		parts = append(parts, e.Name+"s ("+e.Short+"/NAME)")
	}
	return strings.Join(parts[:len(parts)-1], ", ") + " and " + parts[len(parts)-1]
}

// ErrNotServed says that the cluster serves no resource by the word given.
var ErrNotServed = errors.New("the cluster serves no such resource")

// NoCustomError is a custom resource's kind (Argo's Rollout) on a cluster
// that does not serve it: its CRD is not installed.
type NoCustomError struct {
	Entry kind.Entry
}

func (e *NoCustomError) Error() string {
	gr := e.Entry.Resource().GroupResource()
	return fmt.Sprintf("the cluster serves no %s (%s): install %s, or open a cluster that runs it (--context)", e.Entry.Custom, gr, e.Entry.Custom)
}

// NotShownError is a word the cluster serves as a resource that is no
// workload kind of the registry (pods, Argo's rollouts).
type NotShownError struct {
	Word     string
	Resource schema.GroupResource
}

func (e *NotShownError) Error() string {
	return fmt.Sprintf("%q is %s, not a workload kind rollscope opens; write %s", e.Word, e.Resource, kind.Accepted())
}

// CheckArg refuses, before anything connects, a console argument that no
// cluster could answer: a name no object can have, or a bare word that
// reads as a mistyped command — commands gives the commands a word is
// close to (cobra's suggestions), and kubectl refuses such a word rather
// than ask a server for a deployment by that name. A bare word close to
// no command is a deployment's name, as the README documents.
func CheckArg(arg string, commands func(string) []string) error {
	_, name, kinded := kind.Split(arg)
	if kinded && name == "" {
		return fmt.Errorf("%q names no object: write %sNAME", arg, strings.TrimSpace(arg))
	}
	if !kinded && commands != nil {
		if near := commands(name); len(near) > 0 {
			return fmt.Errorf("unknown command %q: did you mean %s? (a deployment by that name: deploy/%s)", name, strings.Join(near, " or "), name)
		}
	}
	if len(validation.IsDNS1123Subdomain(name)) > 0 {
		what := "neither a command nor a workload's name"
		if kinded {
			what = "not a workload's name"
		}
		return fmt.Errorf("%q is %s (names are lower-case letters, digits, '-' and '.'): write NAME or KIND/NAME — rollscope opens %s", arg, what, OpensKinds)
	}
	return nil
}

// ResolveArg reads a console argument as kubectl does — NAME (a
// deployment), or KIND/NAME with the kind word resolved by kinds — and
// says in one sentence what is wrong with one it cannot open.
func ResolveArg(arg string, kinds KindResolver) (kind.Ref, error) {
	if err := CheckArg(arg, nil); err != nil {
		return kind.Ref{}, err
	}
	ref, err := kind.Parse(arg)
	if err == nil && ref.Kind == "" {
		return kind.Ref{Kind: kind.Deployment, Name: ref.Name}, nil
	}
	word, name, _ := kind.Split(arg)
	k, err := kinds.Resolve(word)
	var notShown *NotShownError
	var noCustom *NoCustomError
	switch {
	case errors.As(err, &noCustom):
		return kind.Ref{}, fmt.Errorf("%q: %w", arg, err)
	case errors.As(err, &notShown):
		return kind.Ref{}, fmt.Errorf("%q: the cluster serves %s, which rollscope does not open; it opens %s", arg, notShown.Resource, OpensKinds)
	case err != nil:
		return kind.Ref{}, fmt.Errorf("%q: rollscope opens %s; node groups are in the Nodes pane", arg, OpensKinds)
	}
	return kind.Ref{Kind: k, Name: name}, nil
}
