package action

import (
	"strings"
	"testing"

	"rollscope/model/argo"
	"rollscope/model/kind"
)

// rolloutVerbs are the verbs the Rollout's registry entry lists, in help
// order.
var rolloutVerbs = []kind.Verb{kind.Promote, kind.PromoteFull, kind.Abort, kind.Retry, kind.Pause, kind.Resume,
	kind.SetImage, kind.Restart, kind.Undo, kind.Scale}

// withRollouts gives the table the Rollout's rows when the registry does
// not list the kind yet, as its entry will.
func withRollouts(t *testing.T) {
	t.Helper()
	if _, ok := kind.Kind("rollout").Entry(); ok {
		return
	}
	e := kind.Entry{Kind: "rollout", Name: "Rollout", Plural: "rollouts", Short: "ro", GroupVersion: argo.GroupVersion, Verbs: rolloutVerbs}
	saved := specs
	specs = append(append([]Spec(nil), specs...), argoSpecs(e)...)
	t.Cleanup(func() { specs = saved })
}

// Each Rollout action names the `kubectl argo rollouts` command that sends
// the same (kubectl's own for scale and a patch for resume, which the
// plugin has no command for), and says what it does in a few words.
func TestRolloutActionsNameThePluginsCommand(t *testing.T) {
	withRollouts(t)
	for _, tc := range []struct {
		r             Request
		kubectl, says string
	}{
		{Request{Action: "ro-promote", Namespace: "shop", Name: "checkout"}, "kubectl argo rollouts promote checkout -n shop", "promote"},
		{Request{Action: "ro-promote-full", Namespace: "shop", Name: "checkout"}, "kubectl argo rollouts promote checkout --full -n shop", "promote fully"},
		{Request{Action: "ro-abort", Namespace: "shop", Name: "checkout"}, "kubectl argo rollouts abort checkout -n shop", "abort"},
		{Request{Action: "ro-retry", Namespace: "shop", Name: "checkout"}, "kubectl argo rollouts retry rollout checkout -n shop", "retry"},
		{Request{Action: "ro-pause", Name: "checkout"}, "kubectl argo rollouts pause checkout", "pause"},
		{Request{Action: "ro-resume", Namespace: "shop", Name: "checkout"}, `kubectl patch rollout checkout -n shop --type merge -p '{"spec":{"paused":false}}'`, "resume"},
		{Request{Action: "ro-restart", Namespace: "shop", Name: "checkout"}, "kubectl argo rollouts restart checkout -n shop", "restart"},
		{Request{Action: "ro-undo", Namespace: "shop", Name: "checkout", Revision: 3}, "kubectl argo rollouts undo checkout --to-revision=3 -n shop", "undo to revision 3"},
		{Request{Action: "ro-set-image", Namespace: "shop", Name: "checkout", Container: "app", Image: "shop/checkout:v4"},
			"kubectl argo rollouts set image checkout app=shop/checkout:v4 -n shop", "set image app=shop/checkout:v4"},
		{Request{Action: "ro-scale", Namespace: "shop", Name: "checkout", Replicas: 8}, "kubectl scale rollout checkout --replicas=8 -n shop", "scale to 8"},
	} {
		if got := tc.r.Kubectl(); got != tc.kubectl {
			t.Errorf("%s: Kubectl() = %q, want %q", tc.r.Action, got, tc.kubectl)
		}
		if got := tc.r.Summary(); got != tc.says {
			t.Errorf("%s: Summary() = %q, want %q", tc.r.Action, got, tc.says)
		}
		if got := tc.r.Object(); got != "rollout/checkout" {
			t.Errorf("%s: Object() = %q", tc.r.Action, got)
		}
	}
}

// Every Rollout action writes (so --read-only disables it), is asked of
// the subresource it writes, says in the forecast's place that there is
// none yet, and has a key of its own in the Rollout's view and a help
// column apart from the Deployment's rollout keys.
func TestRolloutActionsAreCheckedOnWhatTheyWrite(t *testing.T) {
	withRollouts(t)
	needs := map[Name]string{
		"ro-promote":      "get rollouts.argoproj.io, patch rollouts.argoproj.io/status, patch rollouts.argoproj.io",
		"ro-promote-full": "get rollouts.argoproj.io, patch rollouts.argoproj.io/status, patch rollouts.argoproj.io",
		"ro-abort":        "get rollouts.argoproj.io, patch rollouts.argoproj.io/status",
		"ro-retry":        "get rollouts.argoproj.io, patch rollouts.argoproj.io/status",
		"ro-pause":        "get rollouts.argoproj.io, patch rollouts.argoproj.io",
		"ro-resume":       "get rollouts.argoproj.io, patch rollouts.argoproj.io",
		"ro-set-image":    "get rollouts.argoproj.io, update rollouts.argoproj.io",
		"ro-restart":      "patch rollouts.argoproj.io",
		"ro-undo":         "get rollouts.argoproj.io, list replicasets.apps, patch rollouts.argoproj.io",
		"ro-scale":        "patch rollouts.argoproj.io/scale",
	}
	keys := map[string]Name{}
	var names []Name
	for _, s := range specs {
		if s.On != "rollout" {
			continue
		}
		names = append(names, s.Name)
		var got []string
		for _, p := range s.Needs {
			got = append(got, p.String())
		}
		if strings.Join(got, ", ") != needs[s.Name] {
			t.Errorf("%s needs %s, want %s", s.Name, strings.Join(got, ", "), needs[s.Name])
		}
		if !s.Writes || !s.Forecast || !s.Argo || s.Group != "Argo Rollout" || len(s.Keys) != 1 {
			t.Errorf("%s: %+v", s.Name, s)
		}
		if other, ok := keys[s.Keys[0]]; ok {
			t.Errorf("%s and %s share the key %q", s.Name, other, s.Keys[0])
		}
		keys[s.Keys[0]] = s.Name
		if n, ok := OfVerb("rollout", s.Verb); !ok || n != s.Name {
			t.Errorf("OfVerb(rollout, %s) = %s, %v", s.Verb, n, ok)
		}
	}
	if len(names) != len(rolloutVerbs) {
		t.Errorf("the Rollout's actions are %v, want one per verb of %v", names, rolloutVerbs)
	}
	// Restart and scale change no template: only set image and undo start
	// a rollout of a new revision.
	for _, n := range []Name{"ro-set-image", "ro-undo"} {
		if s, _ := Lookup(n); !s.StartsRollout {
			t.Errorf("%s does not start a rollout", n)
		}
	}
	for _, n := range []Name{"ro-restart", "ro-scale", "ro-promote"} {
		if s, _ := Lookup(n); s.StartsRollout {
			t.Errorf("%s starts a rollout", n)
		}
	}
}

// A Rollout's view disables each key in the states where its action
// cannot work, with the reason: promote on an aborted Rollout, retry on
// one that is not.
func TestArgoRefusalFollowsTheRolloutsState(t *testing.T) {
	aborted := &argo.Rollout{Status: argo.RolloutStatus{Abort: true, CurrentPodHash: "new", StableRS: "old"}}
	aborted.Name = "checkout"
	for _, tc := range []struct {
		v      kind.Verb
		refuse string
	}{
		{kind.Promote, "rollout/checkout is aborted"},
		{kind.PromoteFull, ""},
		{kind.Abort, "already aborted"},
		{kind.Retry, ""},
		{kind.Pause, ""},
		{kind.Resume, "is not paused"},
		{kind.SetImage, ""}, {kind.Restart, ""}, {kind.Undo, ""}, {kind.Scale, ""},
	} {
		err := ArgoRefusal(tc.v, aborted)
		if (err == nil) != (tc.refuse == "") || err != nil && !strings.Contains(err.Error(), tc.refuse) {
			t.Errorf("%s on an aborted Rollout: %v, want %q", tc.v, err, tc.refuse)
		}
	}
	aborted.Status.Abort = false
	if err := ArgoRefusal(kind.Retry, aborted); err == nil {
		t.Error("retry is offered on a Rollout that is not aborted")
	}
}
