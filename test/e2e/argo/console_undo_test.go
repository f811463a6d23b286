package argo

import (
	"regexp"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"

	"rollscope/test/e2e/e2etest"
)

// TestConsoleUndoesToARevisionPickedInHistory: a canary at revision 3
// (:v1, :v2, :v3); on its page the history's cursor moved to revision 1
// shows the diff an undo to it makes, current → revision; u asks with
// Argo's plugin's undo command, and y puts revision 1's template back on
// the Rollout as a new revision.
func TestConsoleUndoesToARevisionPickedInHistory(t *testing.T) {
	t.Parallel()
	r := newRollout(t, cluster(t), "tmux-undo", heldManifest("shelf", heldImage+":v1"))
	r.settle(t, "on its first revision")
	atRevision3(t, r)

	s := console(t, r.c.CP.AdminKubeconfig, "-n", r.ns, "rollout/shelf")
	s.WaitFor("history (ReplicaSets' rollout.argoproj.io/revision)")
	var screen string
	for range 3 {
		if screen = s.Screen(); strings.Contains(screen, "current → revision 1 ") {
			break
		}
		s.Keys("Down")
		screen = s.WaitUntil("the history's cursor moved", func(next string) bool { return next != screen })
	}
	screen = s.WaitFor("current → revision 1 (- goes away, + an undo brings back):")
	t.Logf("revision 1 picked:\n%s", screen)
	if !regexp.MustCompile(`-\s+image: `+regexp.QuoteMeta(heldImage+":v3")).MatchString(screen) ||
		!regexp.MustCompile(`\+\s+image: `+regexp.QuoteMeta(heldImage+":v1")).MatchString(screen) {
		t.Errorf("the history's diff does not take :v3 away and bring :v1 back:\n%s", screen)
	}

	undo := "kubectl argo rollouts undo shelf --to-revision=1 -n " + r.ns
	s.Keys("u")
	screen = s.WaitFor(undo)
	t.Logf("the confirmation:\n%s", screen)
	if want := "the template goes back to revision 1's (app=" + heldImage + ":v1), which becomes revision 4"; !strings.Contains(screen, want) {
		t.Errorf("the confirmation does not say %q:\n%s", want, screen)
	}
	answer(t, s, screen, undo, "")
	s.WaitFor("back on revision 1's template")

	end := r.waitForState(t, "back on :v1 as revision 4", func(st state) bool {
		return st.settled && st.newest().Revision == "4" && st.newest().Image == heldImage+":v1"
	})
	t.Logf("after the undo: %v", end)
	u := r.template(t)
	if u != heldImage+":v1" {
		t.Errorf("the Rollout's template runs %s after the undo, want revision 1's %s:v1", u, heldImage)
	}
}

// TestConsolePausesResumesAndSetsTheImage: on a Healthy Rollout's page, p
// pauses it (the page says so, the API has spec.paused), r resumes it, and
// i sets a new image, which the canary's first step rolls out to.
func TestConsolePausesResumesAndSetsTheImage(t *testing.T) {
	t.Parallel()
	r := newRollout(t, cluster(t), "tmux-pause", heldManifest("cart", heldImage+":v1"))
	r.settle(t, "on its first revision")
	s := console(t, r.c.CP.AdminKubeconfig, "-n", r.ns, "rollout/cart")
	s.WaitFor("Healthy")

	confirm(t, s, "p", "kubectl argo rollouts pause cart -n "+r.ns, "pause: rollout 'cart' paused")
	r.waitForState(t, "paused by hand", func(st state) bool { return st.Paused && st.Phase == "Paused" })
	screen := s.WaitFor("Paused - manually paused")
	t.Logf("paused:\n%s", screen)

	confirm(t, s, "r", `kubectl patch rollout cart -n `+r.ns+` --type merge -p '{"spec":{"paused":false}}'`, "resume: rollout 'cart' resumed")
	r.waitForState(t, "resumed: Healthy again", func(st state) bool { return st.settled && !st.Paused && st.Phase == "Healthy" })
	screen = s.WaitUntil("the page Healthy again", func(screen string) bool {
		return strings.Contains(screen, "Healthy") && !strings.Contains(screen, "manually paused")
	})
	t.Logf("resumed:\n%s", screen)

	// A Rollout's set image asks for container=image, as the plugin's
	// command takes it.
	s.Keys("i")
	s.WaitFor("container=image")
	s.Keys("-l", "app="+heldImage+":v2")
	s.Keys("Enter")
	screen = s.WaitFor("kubectl argo rollouts set image cart app=" + heldImage + ":v2 -n " + r.ns)
	answer(t, s, screen, "set image", "")
	st := r.waitForState(t, "on :v2's first step", func(st state) bool { return st.settled && st.Phase == "Paused" && st.Step == 1 })
	if got := r.template(t); got != heldImage+":v2" {
		t.Errorf("after set image the template runs %s, want %s:v2", got, heldImage)
	}
	t.Logf("after set image: %v", st)
	screen = s.WaitFor("step 2/4")
	t.Logf("set image:\n%s", screen)
}

// template is the image of the Rollout's template's first container.
func (r rollout) template(t *testing.T) string {
	t.Helper()
	u, err := r.c.Argo.Dynamic.Resource(e2etest.RolloutsGVR).Namespace(r.ns).Get(t.Context(), r.name, metav1.GetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	containers, _, _ := unstructured.NestedSlice(u.Object, "spec", "template", "spec", "containers")
	if len(containers) == 0 {
		return ""
	}
	image, _, _ := unstructured.NestedString(containers[0].(map[string]any), "image")
	return image
}
