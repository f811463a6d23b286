package action

import (
	"fmt"

	"rollscope/model/argo"
	"rollscope/model/kind"
)

// The verbs of a kind Argo's controller runs (a Rollout) are sent as Argo's
// kubectl plugin sends them (engine/argo): their permissions are the
// requests it makes — the status subresource for promote, abort and retry,
// an update for set image, the scale subresource for scale, ReplicaSets
// for undo — and their commands are `kubectl argo rollouts …`. Each is
// forecast by rehearsing it with the embedded Argo controller
// (engine/perform).

// byArgo reports whether Argo's controller runs the objects of e's kind,
// so that its verbs are the plugin's.
func byArgo(e kind.Entry) bool { return e.Resource().GroupResource() == argo.Rollouts.GroupResource() }

// argoAction is what an action of a verb is on a Rollout.
type argoAction struct {
	key, help, does string
	needs           func(p argoPermissions) []Permission
	startsRollout   bool
}

// argoPermissions are the Rollout kind's: its get, patch and update, and
// patches of its status and scale subresources.
type argoPermissions struct{ get, patch, update, status, scale Permission }

var argoActions = map[kind.Verb]argoAction{
	kind.Promote: {key: "P", help: "promote (past the pause or step)",
		does:  "clears the pause (or moves to the next step) in the status, then unpauses the spec if paused by hand",
		needs: readStatusAndSpec},
	kind.PromoteFull: {key: "A", help: "promote --full (skip the remaining steps)",
		does:  "asks Argo's controller to go straight to the new template, skipping the remaining steps, pauses and analysis (an abort too)",
		needs: readStatusAndSpec},
	kind.Abort: {key: "x", help: "abort (back to stable)",
		does:  "sets status.abort: Argo's controller scales the stable ReplicaSet back up and the new one down; the template stays",
		needs: readStatus},
	kind.Retry: {key: "t", help: "retry the aborted rollout",
		does:  "clears status.abort: the Rollout goes through its steps again",
		needs: readStatus},
	kind.Pause: {key: "p", help: "pause",
		does:  "sets spec.paused: the Rollout holds where it is until resumed or promoted",
		needs: readSpec},
	kind.Resume: {key: "r", help: "resume (a pause by hand)",
		does:  "clears spec.paused; a pause step still waits for a promote",
		needs: readSpec},
	kind.SetImage: {key: "i", help: "set image", startsRollout: true,
		does:  "the Rollout (or its workloadRef's Deployment) is read and sent back whole with the new image",
		needs: func(p argoPermissions) []Permission { return []Permission{p.get, p.update} }},
	kind.Restart: {key: "R", help: "restart",
		does:  "sets spec.restartAt: Argo's controller replaces the pods, no new revision",
		needs: func(p argoPermissions) []Permission { return []Permission{p.patch} }},
	kind.Undo: {key: "u", help: "undo to the chosen revision", startsRollout: true,
		does:  "replaces the template (or its workloadRef's) with the revision's ReplicaSet's",
		needs: func(p argoPermissions) []Permission { return []Permission{p.get, listReplicaSets, p.patch} }},
	kind.Scale: {key: "s", help: "scale",
		needs: func(p argoPermissions) []Permission { return []Permission{p.scale} }},
}

// The permissions of the plugin's commands that read the Rollout, then
// patch its status, its spec or both.
func readStatusAndSpec(p argoPermissions) []Permission { return []Permission{p.get, p.status, p.patch} }
func readStatus(p argoPermissions) []Permission        { return []Permission{p.get, p.status} }
func readSpec(p argoPermissions) []Permission          { return []Permission{p.get, p.patch} }

// argoSpecs are the rows of an entry of a kind Argo's controller runs.
func argoSpecs(e kind.Entry) []Spec {
	on := Permission{Group: e.GroupVersion.Group, Resource: e.Plural}
	with := func(verb, sub string) Permission { p := on; p.Verb, p.Subresource = verb, sub; return p }
	p := argoPermissions{get: with("get", ""), patch: with("patch", ""), update: with("update", ""),
		status: with("patch", "status"), scale: with("patch", "scale")}
	var out []Spec
	for _, v := range e.Verbs {
		a, ok := argoActions[v]
		if !ok {
			continue
		}
		// The help column is "Argo Rollout": "Rollout" is the
		// Deployment's.
		out = append(out, Spec{Name: Name(e.Short + "-" + string(v)), Keys: []string{a.key},
			Help: a.help + " (" + e.Name + " view)", Group: "Argo " + e.Name, On: e.Kind, Verb: v,
			Needs: a.needs(p), Writes: true, StartsRollout: a.startsRollout, Forecast: true, Does: a.does, Argo: true})
	}
	return out
}

// argoKubectl is the command of the plugin that sends the same; kubectl's
// own for scale and a patch for resume, which the plugin has none for.
func argoKubectl(r Request) string {
	ns := ""
	if r.Namespace != "" {
		ns = " -n " + r.Namespace
	}
	plugin := "kubectl argo rollouts "
	switch r.Spec().Verb {
	case kind.Promote:
		return plugin + "promote " + r.Name + ns
	case kind.PromoteFull:
		return plugin + "promote " + r.Name + " --full" + ns
	case kind.Abort:
		return plugin + "abort " + r.Name + ns
	case kind.Retry:
		return plugin + "retry rollout " + r.Name + ns
	case kind.Pause:
		return plugin + "pause " + r.Name + ns
	case kind.Resume:
		return "kubectl patch rollout " + r.Name + ns + ` --type merge -p '{"spec":{"paused":false}}'`
	case kind.Restart:
		return plugin + "restart " + r.Name + ns
	case kind.Undo:
		return fmt.Sprintf("%sundo %s --to-revision=%d%s", plugin, r.Name, r.Revision, ns)
	case kind.SetImage:
		return plugin + "set image " + r.Name + " " + r.Container + "=" + r.Image + ns
	case kind.Scale:
		return fmt.Sprintf("kubectl scale rollout %s --replicas=%d%s", r.Name, r.Replicas, ns)
	}
	return ""
}

// ArgoRefusal says why verb v cannot work on Rollout r in its state — a
// Rollout's view disables the key with it — or nil when it can. The verbs
// whose plugin command reads no state (set image, restart, undo, scale)
// are never refused here; engine/argo checks again when it sends.
func ArgoRefusal(v kind.Verb, r *argo.Rollout) error {
	rules := map[kind.Verb]func(*argo.Rollout) ([]argo.Write, error){
		kind.Promote: argo.Promote, kind.PromoteFull: argo.PromoteFull, kind.Abort: argo.Abort,
		kind.Retry: argo.Retry, kind.Pause: argo.Pause, kind.Resume: argo.Resume,
	}
	rule, ok := rules[v]
	if !ok {
		return nil
	}
	_, err := rule(r)
	return err
}
