package console

import (
	"context"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/internal/tmuxtest"
)

// viewerFlow: a view-only user watches everything, sees the write keys
// disabled with the reason the API server gave, and pressing them anyway
// is refused in one line with nothing sent. --read-only does the same for
// a user who could write.
func viewerFlow(t *testing.T, c *cluster) {
	r := rollout{namespace: "viewer", name: "web", replicas: 2, image: "e2e.example/web:v1"}
	c.create(t, r)
	before := c.deployment(t, r.namespace, r.name).ResourceVersion

	t.Run("view-only user", func(t *testing.T) {
		s := c.console(t, c.CP.ViewerKubeconfig, r.namespace, r.name)
		screen := s.WaitFor("successfully rolled out")
		for _, want := range []string{"ctx rollscope-e2e-viewer", "hollow-0", "Running"} {
			if !strings.Contains(screen, want) {
				t.Errorf("the view-only console lacks %q:\n%s", want, screen)
			}
		}
		s.Keys("?")
		help := s.WaitFor("esc or ? to close")
		if !strings.Contains(help, "set image — not allowed: you may not") || !strings.Contains(help, "pause rollout — not allowed") {
			t.Errorf("help does not show the write keys disabled with the API's reason:\n%s", help)
		}
		s.Keys("Escape")
		s.WaitFor("ReplicaSets")
		pressRefused(t, s, "not allowed: you may not")
	})
	t.Run("read-only flag", func(t *testing.T) {
		s := c.console(t, c.CP.AdminKubeconfig, r.namespace, r.name, "--read-only")
		screen := s.WaitFor("successfully rolled out")
		if !strings.Contains(screen, "READ-ONLY") {
			t.Errorf("the header does not say READ-ONLY:\n%s", screen)
		}
		pressRefused(t, s, "read-only: rollscope was started with --read-only")
	})
	c.steady(t, "the deployment's resourceVersion", func(ctx context.Context) (string, error) {
		d, err := c.Admin.AppsV1().Deployments(r.namespace).Get(ctx, r.name, metav1.GetOptions{})
		if err != nil {
			return "", err
		}
		if d.ResourceVersion != before {
			t.Errorf("the deployment changed (resourceVersion %s, was %s): a refused key sent a write", d.ResourceVersion, before)
		}
		return d.ResourceVersion, nil
	})
}

// pressRefused presses set image, pause and scale, and expects each refused
// on screen, in one line naming the action and the reason, without its
// dialog and with the console still running. Each key's refusal replaces the
// last one's, so no Escape is needed in between (an Escape followed at once
// by p would reach the console as alt+p).
func pressRefused(t *testing.T, s *tmuxtest.Session, reason string) {
	t.Helper()
	for _, k := range []struct{ key, action string }{{"i", "set image"}, {"p", "pause rollout"}, {"s", "scale"}} {
		s.Keys(k.key)
		want := k.action + ": " + reason
		screen := s.WaitFor(want)
		noCrash(t, screen)
		if strings.Contains(screen, "will send the same as") || strings.Contains(screen, "> e2e.example") {
			t.Errorf("key %s opened its dialog although it is refused:\n%s", k.key, screen)
		}
		for _, line := range strings.Split(screen, "\n") {
			if strings.Contains(line, want) {
				t.Logf("%s refused: %s", k.key, strings.TrimSpace(line))
			}
		}
	}
}
