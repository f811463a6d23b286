package argo

import (
	"strconv"
	"strings"
	"testing"
)

// canaryManifest is a Rollout of 5 replicas whose steps are the ones most
// canaries start with: 20 %, wait for a person, 60 %, wait 10 s. With 5
// replicas Argo's basic-canary arithmetic (no traffic router: the weight is
// the share of pods) is exact: 20 % is 1 canary pod beside 4 stable ones,
// 60 % is 3 beside 2.
func canaryManifest(name string) string {
	return rolloutManifest(name, name, 5, "registry.example/"+name+":v1", `
      - setWeight: 20
      - pause: {}
      - setWeight: 60
      - pause: {duration: 10s}`)
}

// rolloutManifest is a canary Rollout of replicas pods labelled app=app,
// one container app running image, with steps (YAML list items).
func rolloutManifest(name, app string, replicas int, image, steps string) string {
	return `
apiVersion: argoproj.io/v1alpha1
kind: Rollout
metadata:
  name: ` + name + `
spec:
  replicas: ` + strconv.Itoa(replicas) + `
  revisionHistoryLimit: 3
  selector:
    matchLabels: {app: ` + app + `}
  template:
    metadata:
      labels: {app: ` + app + `}
    spec:
      containers:
      - name: app
        image: ` + image + `
  strategy:
    canary:
      steps:` + steps + `
`
}

// pausedAt is the canary held on a step: the Rollout Paused there by the
// canary step (CanaryPauseStep), the new ReplicaSet at canary ready pods and
// the stable one at stable, nothing else running.
func pausedAt(step int64, canary, stable int32) func(snapshot) bool {
	return func(s snapshot) bool {
		if s.Phase != "Paused" || s.Step != step || len(s.PauseReasons) != 1 || s.PauseReasons[0] != "CanaryPauseStep" {
			return false
		}
		if s.CurrentPodHash == s.StableRS {
			return false
		}
		c, st := s.rs(s.CurrentPodHash), s.rs(s.StableRS)
		if c.Spec != canary || c.Ready != canary || st.Spec != stable || st.Ready != stable {
			return false
		}
		for _, rs := range s.others(s.CurrentPodHash, s.StableRS) {
			if rs.Spec != 0 {
				return false
			}
		}
		return true
	}
}

// pausedCanary creates the canary app in namespace ns, waits for its first
// revision, changes its image to :v2 and waits until it holds at step 1
// with 1 new pod and 4 stable ones; it returns the Rollout and both
// snapshots.
func pausedCanary(t *testing.T, ns, app string) (r rollout, first, paused snapshot) {
	t.Helper()
	r = newRollout(t, cluster(t), ns, canaryManifest(app))
	first = r.waitFor(t, "the first revision healthy", healthy(5))

	image := "registry.example/" + app + ":v2"
	r.setImage(t, image)
	paused = r.waitFor(t, "paused at step 1 with 1 canary and 4 stable pods", pausedAt(1, 1, 4))
	if paused.StableRS != first.StableRS {
		t.Errorf("while paused the stable ReplicaSet is %s, want the first revision's %s", paused.StableRS, first.StableRS)
	}
	if got := paused.rs(paused.CurrentPodHash).Image; got != image {
		t.Errorf("the canary ReplicaSet runs %s, want %s", got, image)
	}
	if paused.Replicas != 5 || paused.Updated != 1 || paused.Available != 5 {
		t.Errorf("status while paused: replicas %d updated %d available %d, want 5, 1, 5", paused.Replicas, paused.Updated, paused.Available)
	}
	return r, first, paused
}

// TestCanaryPausesThenPromotes: after an image change the canary stops on
// its indefinite pause with 1 of 5 pods new; the plugin's promote moves it
// to 60 % (3 new, 2 stable), past the timed pause, and to Healthy on the
// new image alone.
func TestCanaryPausesThenPromotes(t *testing.T) {
	t.Parallel()
	r, _, paused := pausedCanary(t, "canary-promote", "web")

	r.promote(t)
	r.waitFor(t, "paused at step 3 (10 s) with 3 canary and 2 stable pods", pausedAt(3, 3, 2))
	done := r.waitFor(t, "healthy on the new revision", healthy(5))
	if done.StableRS != paused.CurrentPodHash {
		t.Errorf("healthy on ReplicaSet %s, want the canary's %s", done.StableRS, paused.CurrentPodHash)
	}
	if got := done.rs(done.StableRS).Image; got != "registry.example/web:v2" {
		t.Errorf("the stable ReplicaSet runs %s, want registry.example/web:v2", got)
	}
}

// TestCanaryAbortReturnsToStable: the plugin's abort on a canary paused at
// 20 % scales the canary away and leaves every pod on the stable revision;
// the Rollout says Degraded and that it was aborted.
func TestCanaryAbortReturnsToStable(t *testing.T) {
	t.Parallel()
	r, first, paused := pausedCanary(t, "canary-abort", "api")

	r.abort(t)
	end := r.waitFor(t, "aborted: Degraded, the canary at 0, the stable revision at 5", func(s snapshot) bool {
		return s.Phase == "Degraded" && s.Abort && s.StableRS == first.StableRS &&
			s.rs(paused.CurrentPodHash).Spec == 0 && s.rs(first.StableRS).Spec == 5 && s.rs(first.StableRS).Ready == 5
	})
	if !strings.Contains(strings.ToLower(end.Message), "aborted") {
		t.Errorf("the aborted Rollout's message is %q, want it to say aborted", end.Message)
	}
	if got := end.rs(end.StableRS).Image; got != "registry.example/api:v1" {
		t.Errorf("after abort the stable ReplicaSet runs %s, want registry.example/api:v1", got)
	}
}
