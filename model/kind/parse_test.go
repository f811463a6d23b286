package kind_test

import (
	"errors"
	"strings"
	"testing"

	"rollscope/model/kind"
)

// TestParseSpellings: every spelling kubectl accepts for a workload kind,
// with both separators.
func TestParseSpellings(t *testing.T) {
	spellings := map[kind.Kind][]string{
		kind.Deployment: {"deployment", "deployments", "deploy", "Deployment", "DEPLOY",
			"deployment.apps", "deployments.apps", "deploy.apps", "deployments.v1.apps", "Deployment.apps"},
		kind.ReplicationController: {"replicationcontroller", "replicationcontrollers", "rc", "RC", "ReplicationController"},
		kind.StatefulSet: {"statefulset", "statefulsets", "sts", "StatefulSet", "STS",
			"statefulset.apps", "statefulsets.apps", "sts.apps", "statefulsets.v1.apps"},
		kind.DaemonSet: {"daemonset", "daemonsets", "ds", "DaemonSet", "DS",
			"daemonset.apps", "daemonsets.apps", "ds.apps", "daemonsets.v1.apps"},
		// kubectl's spelling of Argo's: `kubectl get rollouts.argoproj.io`.
		kind.Rollout: {"rollout", "rollouts", "ro", "Rollout", "RO",
			"rollout.argoproj.io", "rollouts.argoproj.io", "ro.argoproj.io", "rollouts.v1alpha1.argoproj.io"},
	}
	for want, words := range spellings {
		for _, w := range words {
			for _, text := range []string{w + "/db", w + " db", " " + w + "   db ", w + "\tdb"} {
				got, err := kind.Parse(text)
				if err != nil || got != (kind.Ref{Kind: want, Name: "db"}) {
					t.Errorf("Parse(%q) = %+v, %v; want %s/db", text, got, err, want)
				}
			}
		}
	}
}

func TestParseBareName(t *testing.T) {
	for _, text := range []string{"frontend", " frontend ", "sts", "deploy"} {
		got, err := kind.Parse(text)
		if err != nil || got != (kind.Ref{Name: strings.TrimSpace(text)}) {
			t.Errorf("Parse(%q) = %+v, %v; want the bare name", text, got, err)
		}
	}
}

func TestParseNoName(t *testing.T) {
	for text, want := range map[string]kind.Kind{"sts/": kind.StatefulSet, "rc/ ": kind.ReplicationController, "pods/": ""} {
		got, err := kind.Parse(text)
		if !errors.Is(err, kind.ErrNoName) || got.Kind != want || got.Name != "" {
			t.Errorf("Parse(%q) = %+v, %v; want kind %q and ErrNoName", text, got, err, want)
		}
	}
}

// TestParseUnknownKind: kinds kubectl does not take for these resources, or
// rollscope does not open, are one clear line naming the kinds it takes.
func TestParseUnknownKind(t *testing.T) {
	for _, text := range []string{"pods/web", "po web", "sts.extensions/db", "rc.apps/db", "rc.v1/db", "deployments.v2.apps/x", "statefulsetss/db", "rollouts.apps/x"} {
		_, err := kind.Parse(text)
		var unknown *kind.UnknownError
		if !errors.As(err, &unknown) {
			t.Errorf("Parse(%q) = %v; want an UnknownError", text, err)
			continue
		}
		msg := err.Error()
		if strings.Contains(msg, "\n") || !strings.Contains(msg, "statefulset/NAME (sts)") || !strings.Contains(msg, "deployment/NAME (deploy)") {
			t.Errorf("Parse(%q) error %q: want one line naming the kinds", text, msg)
		}
	}
	_, err := kind.Parse("pods/web")
	want := `"pods/web": "pods" is not a workload kind rollscope knows; write deployment/NAME (deploy), replicationcontroller/NAME (rc), statefulset/NAME (sts), daemonset/NAME (ds) or rollout/NAME (ro)`
	if err.Error() != want {
		t.Errorf("error\n got %s\nwant %s", err, want)
	}
}

func TestRegistryResources(t *testing.T) {
	for _, e := range kind.All() {
		got, ok := kind.ForResource(e.Resource().GroupResource())
		if !ok || got.Kind != e.Kind {
			t.Errorf("ForResource(%v) = %v, %v", e.Resource(), got.Kind, ok)
		}
		if byName, ok := kind.ForName(e.Name); !ok || byName.Kind != e.Kind {
			t.Errorf("ForName(%q) = %v, %v", e.Name, byName.Kind, ok)
		}
		if k, ok := kind.Lookup(e.Short); !ok || k != e.Kind {
			t.Errorf("Lookup(%q) = %v, %v", e.Short, k, ok)
		}
	}
	if _, ok := kind.Kind("node").Entry(); ok {
		t.Error("a node is not a workload kind")
	}
}
