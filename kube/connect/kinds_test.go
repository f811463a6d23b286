package connect_test

import (
	"strings"
	"testing"

	"github.com/spf13/cobra"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	fakediscovery "k8s.io/client-go/discovery/fake"
	k8stesting "k8s.io/client-go/testing"

	"rollscope/kube/connect"
	"rollscope/kube/memapi"
	"rollscope/model/kind"
)

// TestKindsResolveThroughDiscovery: the embedded API answers discovery with
// the short names a real server reports, so every spelling kubectl takes
// resolves through the RESTMapper to the registry's kind.
func TestKindsResolveThroughDiscovery(t *testing.T) {
	kinds := connect.NewKinds(memapi.New(memapi.Options{}).Client().Discovery())
	for want, words := range map[kind.Kind][]string{
		kind.Deployment:            {"deploy", "deployment", "deployments", "Deployment", "deployments.apps", "deploy.apps", "deployments.v1.apps"},
		kind.ReplicationController: {"rc", "replicationcontroller", "replicationcontrollers", "RC"},
		kind.StatefulSet:           {"sts", "STS", "statefulset", "statefulsets", "StatefulSet", "statefulsets.apps", "sts.apps", "statefulsets.v1.apps"},
		kind.DaemonSet:             {"ds", "daemonset", "daemonsets", "daemonsets.apps", "ds.apps"},
	} {
		for _, w := range words {
			if got, err := kinds.Resolve(w); err != nil || got != want {
				t.Errorf("Resolve(%q) = %q, %v; want %s", w, got, err, want)
			}
		}
	}
	for word, msg := range map[string]string{
		"po":      `"po" is pods, not a workload kind rollscope opens`,
		"cronjob": `"cronjob": the cluster serves no such resource`,
	} {
		if _, err := kinds.Resolve(word); err == nil || !strings.Contains(err.Error(), msg) {
			t.Errorf("Resolve(%q) = %v; want %q", word, err, msg)
		}
	}
}

// TestKindsTakeACustomResourcesShortNames: a CRD's own shortNames reach the
// resolver through discovery, as they reach kubectl (Argo's Rollout is ro),
// and resolve to the registry's kind.
func TestKindsTakeACustomResourcesShortNames(t *testing.T) {
	d := &fakediscovery.FakeDiscovery{Fake: &k8stesting.Fake{Resources: []*metav1.APIResourceList{{
		GroupVersion: "argoproj.io/v1alpha1",
		APIResources: []metav1.APIResource{{Name: "rollouts", SingularName: "rollout", Namespaced: true, Kind: "Rollout", ShortNames: []string{"ro"}, Verbs: metav1.Verbs{"get", "list", "watch"}}},
	}}}}
	for _, w := range []string{"ro", "rollout", "rollouts", "rollouts.argoproj.io", "ro.argoproj.io"} {
		if got, err := connect.NewKinds(d).Resolve(w); err != nil || got != kind.Rollout {
			t.Errorf("Resolve(%q) = %q, %v; want rollout", w, got, err)
		}
	}
}

// A cluster without Argo's CRD refuses a Rollout in one line that says
// what to do; the embedded cluster, which runs Rollouts, opens it.
func TestARolloutWhereNoneIsServedIsOneClearLine(t *testing.T) {
	// A live cluster's discovery without the CRD.
	live := connect.NewKinds(&fakediscovery.FakeDiscovery{Fake: &k8stesting.Fake{Resources: []*metav1.APIResourceList{{
		GroupVersion: "apps/v1",
		APIResources: []metav1.APIResource{{Name: "deployments", SingularName: "deployment", Namespaced: true, Kind: "Deployment", ShortNames: []string{"deploy"}, Verbs: metav1.Verbs{"get", "list", "watch"}}},
	}}}})
	want := `"ro/web": the cluster serves no Argo Rollouts (rollouts.argoproj.io): install Argo Rollouts, or open a cluster that runs it (--context)`
	if _, err := connect.ResolveArg("ro/web", live); err == nil || err.Error() != want {
		t.Errorf("ResolveArg(ro/web) = %v\nwant %s", err, want)
	}
	if got, err := (connect.Registry{}).Resolve("ro"); err != nil || got != kind.Rollout {
		t.Errorf("the embedded cluster's Resolve(ro) = %q, %v; want rollout", got, err)
	}
}

// The embedded API's discovery serves Argo's Rollouts, by kubectl's words.
func TestEmbeddedDiscoveryServesRollouts(t *testing.T) {
	kinds := connect.NewKinds(memapi.New(memapi.Options{}).Client().Discovery())
	for _, w := range []string{"ro", "rollout", "rollouts.argoproj.io"} {
		if got, err := kinds.Resolve(w); err != nil || got != kind.Rollout {
			t.Errorf("Resolve(%q) = %q, %v; want rollout", w, got, err)
		}
	}
}

// TestEmbeddedDiscoveryPrefersWhatItServes: the embedded API's preferred
// resources are what it serves, with the workload kinds' short names.
func TestEmbeddedDiscoveryPrefersWhatItServes(t *testing.T) {
	lists, err := memapi.New(memapi.Options{}).Client().Discovery().ServerPreferredResources()
	if err != nil {
		t.Fatal(err)
	}
	short := map[string]string{}
	for _, l := range lists {
		for _, r := range l.APIResources {
			if len(r.ShortNames) > 0 {
				short[r.Name] = r.ShortNames[0]
			}
		}
	}
	for _, e := range kind.Builtin() {
		if short[e.Plural] != e.Short {
			t.Errorf("%s: short name %q; want %q", e.Plural, short[e.Plural], e.Short)
		}
	}
}

// TestOpensKindsNamesEveryKindAsItIsTyped: the refusal of an argument
// lists every kind rollscope opens, with the word to type for it.
func TestOpensKindsNamesEveryKindAsItIsTyped(t *testing.T) {
	want := "deployments (deploy/NAME or NAME), ReplicationControllers (rc/NAME), StatefulSets (sts/NAME), DaemonSets (ds/NAME) and Rollouts (ro/NAME)"
	if connect.OpensKinds != want {
		t.Errorf("OpensKinds = %q, want %q", connect.OpensKinds, want)
	}
}

// countingKinds is a resolver that counts the kind words it was asked for:
// on a live cluster each would be a discovery request.
type countingKinds struct{ asked int }

func (c *countingKinds) Resolve(word string) (kind.Kind, error) {
	c.asked++
	return connect.Registry{}.Resolve(word)
}

// TestMistypedCommandsAndImpossibleNamesAreRefusedUnasked: a bare word
// close to a command is refused with the command (cobra's suggestions, as
// rollscope's root gives them), and so is a name no object can have; a
// bare name close to no command stays a deployment, as documented. Nothing
// refused reaches the resolver.
func TestMistypedCommandsAndImpossibleNamesAreRefusedUnasked(t *testing.T) {
	root := &cobra.Command{Use: "rollscope", SuggestionsMinimumDistance: 2}
	for _, name := range []string{"simulate", "scenarios", "rolling-update"} {
		root.AddCommand(&cobra.Command{Use: name, Run: func(*cobra.Command, []string) {}})
	}
	for arg, refused := range map[string]string{
		"scenario":        `unknown command "scenario": did you mean scenarios? (a deployment by that name: deploy/scenario)`,
		"rolling-updte":   `did you mean rolling-update?`,
		"Simulate":        `did you mean simulate?`,
		"Web_1":           `"Web_1" is neither a command nor a workload's name`,
		"sts/DB":          `"sts/DB" is not a workload's name`,
		"deploy/":         `"deploy/" names no object: write deploy/NAME`,
		"frontend":        "",
		"web":             "",
		"deploy/scenario": "",
		"ds/node-agent":   "",
	} {
		err := connect.CheckArg(arg, root.SuggestionsFor)
		if refused == "" && err != nil || refused != "" && (err == nil || !strings.Contains(err.Error(), refused)) {
			t.Errorf("CheckArg(%q) = %v; want %q", arg, err, refused)
		}
		if strings.Contains(refused, "did you mean") {
			continue // a command's look-alike is the command line's to refuse
		}
		kinds := &countingKinds{}
		if _, err := connect.ResolveArg(arg, kinds); refused != "" && (err == nil || kinds.asked != 0) {
			t.Errorf("ResolveArg(%q) = %v after %d kind look-ups; want it refused unasked", arg, err, kinds.asked)
		}
	}
}
