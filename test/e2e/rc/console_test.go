package rc

import (
	"strings"
	"testing"

	"rollscope/internal/tmuxtest"
	"rollscope/test/e2e/rollscopebin"
)

// consoleUpdate opens `:rc web` in the console and asks for an update to
// image with the given update period.
func consoleUpdate(t *testing.T, s *tmuxtest.Session, image, period string) {
	t.Helper()
	s.Keys(":", "rc web", "Enter")
	s.WaitFor("rc/web  phase no update running")
	s.Keys("i")
	s.WaitFor("Rolling update of rc/web")
	s.Keys(image, "Tab", "Tab", "Tab", "BSpace", "BSpace", period, "Enter")
	s.WaitFor("send?")
	s.Keys("y")
	s.WaitFor("rolling update of rc/web to " + image + ": asked")
}

// settledOn waits for the view to show web alone, done, on image.
func settledOn(t *testing.T, s *tmuxtest.Session, image string) {
	t.Helper()
	s.WaitUntil("web alone on "+image, func(screen string) bool {
		return strings.Contains(screen, "phase no update running") && strings.Contains(screen, "next none") &&
			strings.Contains(screen, image) && strings.Contains(screen, "desired/current/ready 3/3/3")
	})
}

// The console on a live cluster: :rc web, i, y runs the update through the
// rolling-update controller the console itself runs; then a second update
// is aborted with x part way and goes back.
func consoleFlow(t *testing.T, c *cluster) {
	const ns = "rc-console"
	c.web(t, ns)
	pods := watchPods(t, c.Admin, ns)
	s := tmuxtest.Start(t, 140, 40, rollscopebin.Path(t), "--kubeconfig", c.CP.AdminKubeconfig, "-n", ns)
	s.Timeout = patience
	s.WaitFor("ns " + ns)

	consoleUpdate(t, s, newImage, "1s")
	s.WaitFor("phase rollout")
	settledOn(t, s, newImage)
	c.settled(t, ns, newImage)

	const third = "e2e.example/web:v3"
	consoleUpdate(t, s, third, "1m")
	// The next controller's first pod is up; the update period holds the
	// rest back.
	s.WaitFor("desired/current/ready 1/1/1")
	s.WaitFor("rc/web  phase rollout")
	s.Keys("x")
	s.WaitFor("Abort the rolling update of rc/web?")
	s.Keys("y")
	s.WaitFor("abort of rc/web: asked")
	settledOn(t, s, newImage)
	c.settled(t, ns, newImage)
	if n := pods.max(); n > replicas+maxSurge {
		t.Errorf("%d pods ran at once, more than replicas + maxSurge = %d", n, replicas+maxSurge)
	}
}
