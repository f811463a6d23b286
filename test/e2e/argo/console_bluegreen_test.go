package argo

import (
	"strings"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/test/e2e/e2etest"
)

// TestConsoleBlueGreenAndAViewer: a blue/green Rollout waiting for its
// promote shows its active ReplicaSet (the old revision's) and its preview
// one (the new); a view-only user sees the same page, finds P disabled with
// the reason, and nothing is written to the Rollout.
func TestConsoleBlueGreenAndAViewer(t *testing.T) {
	t.Parallel()
	c := cluster(t)
	const ns = "tmux-bluegreen"
	c.Namespace(t, ns)
	manifest := strings.ReplaceAll(blueGreenManifest, "shop", "store")
	for _, name := range []string{"store-active", "store-preview"} {
		svc := &corev1.Service{
			ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec:       corev1.ServiceSpec{Selector: map[string]string{"app": "store"}, Ports: []corev1.ServicePort{{Name: "http", Port: 80}}},
		}
		if _, err := c.Admin.CoreV1().Services(ns).Create(t.Context(), svc, metav1.CreateOptions{}); err != nil {
			t.Fatalf("creating service %s: %v", name, err)
		}
	}
	if _, err := c.Argo.Dynamic.Resource(e2etest.RolloutsGVR).Namespace(ns).Create(t.Context(), decode(t, manifest), metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating rollout: %v", err)
	}
	r := rollout{c: c, ns: ns, name: "store"}
	first := r.waitFor(t, "the first revision healthy", func(s snapshot) bool {
		return s.Phase == "Healthy" && s.StableRS != "" && s.ActiveSelector == s.StableRS && s.rs(s.StableRS).Ready == 3
	})
	r.setImage(t, "registry.example/store:v2")
	paused := r.waitFor(t, "the new revision up behind the preview Service, paused", func(s snapshot) bool {
		return s.Phase == "Paused" && s.CurrentPodHash != first.StableRS &&
			s.PreviewSelector == s.CurrentPodHash && s.ActiveSelector == first.StableRS &&
			s.rs(s.CurrentPodHash).Ready == 3 && s.rs(first.StableRS).Ready == 3
	})
	active, preview := "store-"+first.StableRS, "store-"+paused.CurrentPodHash

	s := console(t, c.CP.AdminKubeconfig, "-n", ns, "rollout/store")
	screen := s.WaitUntil("the active and preview ReplicaSets", func(screen string) bool {
		return strings.Contains(lineWith(screen, active), "active") && strings.Contains(lineWith(screen, preview), "preview")
	})
	t.Logf("blue/green page:\n%s", screen)
	if !strings.Contains(screen, "blueGreen") {
		t.Errorf("the page does not name the blueGreen strategy:\n%s", screen)
	}

	before := resourceVersion(t, r)
	v := console(t, c.CP.ViewerKubeconfig, "-n", ns, "rollout/store")
	screen = v.WaitUntil("the viewer's page with both ReplicaSets", func(screen string) bool {
		return strings.Contains(lineWith(screen, active), "active") && strings.Contains(lineWith(screen, preview), "preview")
	})
	t.Logf("the viewer's page:\n%s", screen)
	for _, k := range []struct{ key, help string }{{"P", "promote (past"}, {"A", "promote --full"}, {"x", "abort ("}} {
		v.Keys(k.key)
		screen = v.WaitUntil(k.key+" refused: you may not patch the status", func(screen string) bool {
			return lineWith(screen, k.help, "not allowed: you may not patch rollouts.argoproj.io/status") != ""
		})
		t.Logf("the viewer pressed %s:\n%s", k.key, screen)
		if strings.Contains(screen, "kubectl argo rollouts") {
			t.Errorf("the viewer's %s opened a confirmation:\n%s", k.key, screen)
		}
		v.Keys("y")
	}
	if after := resourceVersion(t, r); after != before {
		t.Errorf("the viewer's keys changed the Rollout: resourceVersion %s → %s", before, after)
	}
	if now, _ := r.read(t.Context()); now.Phase != "Paused" || now.ActiveSelector != first.StableRS {
		t.Errorf("after the viewer's keys the Rollout is %s, want still Paused on the old active revision", now)
	}
}

// resourceVersion is the Rollout's, which any write moves.
func resourceVersion(t *testing.T, r rollout) string {
	t.Helper()
	u, err := r.c.Argo.Dynamic.Resource(e2etest.RolloutsGVR).Namespace(r.ns).Get(t.Context(), r.name, metav1.GetOptions{})
	if err != nil {
		t.Fatalf("reading rollout %s/%s: %v", r.ns, r.name, err)
	}
	return u.GetResourceVersion()
}
