package argo

import (
	"context"
	"testing"

	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/test/e2e/e2etest"
)

// blueGreenManifest is a blue/green shop that waits for its promote.
var blueGreenManifest = blueGreenFidelityManifest("\n      autoPromotionEnabled: false")

// TestBlueGreenPromotionSwitchesTheActiveService: the new revision comes up
// whole behind the preview Service while users stay on the old one; the
// plugin's promote points the active Service at the new pods.
func TestBlueGreenPromotionSwitchesTheActiveService(t *testing.T) {
	t.Parallel()
	c := cluster(t)
	const ns = "bluegreen"
	c.Namespace(t, ns)
	for _, name := range []string{"shop-active", "shop-preview"} {
		svc := &corev1.Service{
			ObjectMeta: metav1.ObjectMeta{Name: name},
			Spec: corev1.ServiceSpec{
				Selector: map[string]string{"app": "shop"},
				Ports:    []corev1.ServicePort{{Name: "http", Port: 80}},
			},
		}
		if _, err := c.Admin.CoreV1().Services(ns).Create(t.Context(), svc, metav1.CreateOptions{}); err != nil {
			t.Fatalf("creating service %s: %v", name, err)
		}
	}
	u := decode(t, blueGreenManifest)
	if _, err := c.Argo.Dynamic.Resource(e2etest.RolloutsGVR).Namespace(ns).Create(t.Context(), u, metav1.CreateOptions{}); err != nil {
		t.Fatalf("creating rollout: %v", err)
	}
	r := rollout{c: c, ns: ns, name: "shop"}
	selector := func(ctx context.Context, name string) (string, error) {
		svc, err := c.Admin.CoreV1().Services(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return "", err
		}
		return svc.Spec.Selector[podHashLabel], nil
	}

	first := r.waitFor(t, "the first revision healthy", func(s snapshot) bool {
		return s.Phase == "Healthy" && s.StableRS != "" && s.ActiveSelector == s.StableRS && s.rs(s.StableRS).Ready == 3
	})
	waitSelector(t, r, selector, "shop-active", first.StableRS)

	r.setImage(t, "registry.example/shop:v2")
	paused := r.waitFor(t, "the new revision up behind the preview Service, paused", func(s snapshot) bool {
		return s.Phase == "Paused" && s.CurrentPodHash != first.StableRS &&
			s.PreviewSelector == s.CurrentPodHash && s.ActiveSelector == first.StableRS &&
			s.rs(s.CurrentPodHash).Ready == 3 && s.rs(first.StableRS).Ready == 3
	})
	waitSelector(t, r, selector, "shop-preview", paused.CurrentPodHash)
	if got, err := selector(t.Context(), "shop-active"); err != nil || got != first.StableRS {
		t.Fatalf("before promotion the active Service selects %q (%v), want the old revision's %s", got, err, first.StableRS)
	}

	r.promote(t)
	end := r.waitFor(t, "promoted: Healthy with the active Service on the new revision", func(s snapshot) bool {
		return s.Phase == "Healthy" && s.StableRS == paused.CurrentPodHash && s.ActiveSelector == paused.CurrentPodHash && s.rs(s.StableRS).Ready == 3
	})
	waitSelector(t, r, selector, "shop-active", end.StableRS)
	if got := end.rs(end.StableRS).Image; got != "registry.example/shop:v2" {
		t.Errorf("the active ReplicaSet runs %s, want registry.example/shop:v2", got)
	}
}

// waitSelector waits until the Service's pod-template-hash selector is
// want.
func waitSelector(t *testing.T, r rollout, selector func(context.Context, string) (string, error), name, want string) {
	t.Helper()
	r.c.Poll(t, "service "+name+" selecting "+podHashLabel+"="+want, func(ctx context.Context) (bool, string, error) {
		got, err := selector(ctx, name)
		return got == want, podHashLabel + "=" + got, err
	})
}
