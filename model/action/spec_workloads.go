package action

import (
	"fmt"
	"strconv"

	"rollscope/model/kind"
)

// The actions of the workload kinds whose registry entry lists verbs
// (model/kind): one row per kind and verb, named by the kind's short name
// and the verb (sts-set-image, ds-undo: config-file keys), with the kind's
// own permissions. Their keys answer in the kind's view, whose help column
// is the kind's API name.

// verbAction is what an action of a verb is on whatever kind takes it.
type verbAction struct {
	key, help string
	// needs are the permissions on the kind's resource: get and patch
	// the object.
	needs         func(get, patch Permission) []Permission
	startsRollout bool
}

var listRevisions = Permission{Verb: "list", Group: "apps", Resource: "controllerrevisions"}

// verbActions are the verbs' keys, help, permissions and whether they
// roll the pods. Every verb's confirmation carries a forecast.
var verbActions = map[kind.Verb]verbAction{
	kind.SetImage: {key: "i", help: "set image", needs: getAndPatch, startsRollout: true},
	kind.SetEnv:   {key: "e", help: "set env", needs: getAndPatch, startsRollout: true},
	kind.Restart:  {key: "R", help: "restart", needs: getAndPatch, startsRollout: true},
	kind.Undo: {key: "u", help: "undo to the chosen revision", startsRollout: true,
		needs: func(get, patch Permission) []Permission { return []Permission{get, listRevisions, patch} }},
	kind.Scale: {key: "s", help: "scale",
		needs: func(_, patch Permission) []Permission { return []Permission{patch} }},
	kind.Partition: {key: "P", help: "hold at / lower the partition", needs: getAndPatch, startsRollout: true},
}

func getAndPatch(get, patch Permission) []Permission { return []Permission{get, patch} }

// verbSpecs are the rows of every entry's verbs, in registry and verb order.
func verbSpecs() []Spec {
	var out []Spec
	for _, e := range kind.All() {
		if byArgo(e) {
			out = append(out, argoSpecs(e)...)
			continue
		}
		get := Permission{Verb: "get", Group: e.GroupVersion.Group, Resource: e.Plural}
		patch := Permission{Verb: "patch", Group: e.GroupVersion.Group, Resource: e.Plural}
		// A custom resource's kind keys its help column by its project
		// ("Argo Rollouts"): "Rollout" is the Deployment's page's column.
		group := e.Name
		if e.Custom != "" {
			group = e.Custom
		}
		for _, v := range e.Verbs {
			a := verbActions[v]
			out = append(out, Spec{Name: Name(e.Short + "-" + string(v)), Keys: []string{a.key},
				Help: a.help + " (" + e.Name + " view)", Group: group, On: e.Kind, Verb: v,
				Needs: a.needs(get, patch), Writes: true, StartsRollout: a.startsRollout, Forecast: true})
		}
	}
	return out
}

// The rows join the table after the ones spec.go lists, so that the help
// overlay shows the kinds' views' columns last.
func init() { specs = append(specs, verbSpecs()...) }

// OfVerb is the action of verb v on kind k; false when the kind's entry
// does not list the verb.
func OfVerb(k Object, v kind.Verb) (Name, bool) {
	for _, s := range specs {
		if s.On == k && s.Verb == v && v != "" {
			return s.Name, true
		}
	}
	return "", false
}

// workloadObject is kubectl's name for what a verb's request changes; false
// for other requests.
func workloadObject(r Request) (string, bool) {
	if s := r.Spec(); s.Verb != "" {
		return kind.Ref{Kind: s.On, Name: r.Name}.String(), true
	}
	return "", false
}

// workloadKubectl is the kubectl command for a verb's request; false for
// other requests.
func workloadKubectl(r Request) (string, bool) {
	o, ok := workloadObject(r)
	if !ok {
		return "", false
	}
	if r.Spec().Argo {
		return argoKubectl(r), true
	}
	ns := ""
	if r.Namespace != "" {
		ns = " -n " + r.Namespace
	}
	switch r.Spec().Verb {
	case kind.SetImage:
		return fmt.Sprintf("kubectl%s set image %s %s=%s", ns, o, r.Container, r.Image), true
	case kind.SetEnv:
		return fmt.Sprintf("kubectl%s set env %s -c %s %s", ns, o, r.Container, r.Env), true
	case kind.Restart:
		return fmt.Sprintf("kubectl%s rollout restart %s", ns, o), true
	case kind.Undo:
		return fmt.Sprintf("kubectl%s rollout undo %s --to-revision=%d", ns, o, r.Revision), true
	case kind.Scale:
		return fmt.Sprintf("kubectl%s scale %s --replicas=%d", ns, o, r.Replicas), true
	case kind.Partition:
		return fmt.Sprintf(`kubectl%s patch %s -p '{"spec":{"updateStrategy":{"rollingUpdate":{"partition":%d}}}}'`, ns, o, r.Partition), true
	}
	return "", true
}

// workloadSummary names a verb's request in a few words; false for other
// requests.
func workloadSummary(r Request) (string, bool) {
	switch r.Spec().Verb {
	case kind.SetImage:
		return "set image " + r.Container + "=" + r.Image, true
	case kind.SetEnv:
		return "set env " + r.Container + " " + r.Env, true
	case kind.Restart:
		return "restart", true
	case kind.Undo:
		return "undo to revision " + strconv.FormatInt(r.Revision, 10), true
	case kind.Scale:
		return "scale to " + strconv.Itoa(int(r.Replicas)), true
	case kind.Partition:
		return "partition at " + strconv.Itoa(int(r.Partition)), true
	case kind.Promote:
		return "promote", true
	case kind.PromoteFull:
		return "promote fully", true
	case kind.Abort:
		return "abort", true
	case kind.Retry:
		return "retry", true
	case kind.Pause:
		return "pause", true
	case kind.Resume:
		return "resume", true
	}
	return "", false
}
