package canary

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/internal/tmuxtest"
	"rollscope/model"
	"rollscope/test/e2e/e2etest"
	"rollscope/test/e2e/rollscopebin"
)

const consoleNS = "shop"

func console(t *testing.T, argv []string) *tmuxtest.Session {
	s := tmuxtest.Start(t, 160, 45, argv...)
	s.Timeout = patience
	s.WaitFor("deploy web")
	return s
}

// The console drives a canary on a live cluster while it is open: killed
// mid-canary, nobody drives it (a timed hold that has passed does not
// advance); started again, it shows the canary from the Deployment's
// annotations, takes over once the dead console's lease has lapsed, puts
// back the label it finds canaries by when someone takes it off, and
// finishes it. A view-only user finds the canary keys disabled with the
// permission missing.
func TestConsoleKilledMidCanaryIsContinuedByTheNextOne(t *testing.T) {
	bin := rollscopebin.Path(t)
	c := startCluster(t)
	d := c.web(t, consoleNS, 4, intstr.FromInt32(1), intstr.FromInt32(0), 0)
	original := model.CanaryOriginalOf(d)

	viewer := console(t, []string{bin, "--kubeconfig", c.CP.ViewerKubeconfig, "-n", consoleNS, "deploy/web"})
	for _, k := range []string{"K", "P", "A"} {
		viewer.Keys(k)
		viewer.WaitFor("not allowed: you may not update deployments.apps")
		viewer.Keys("j")
		viewer.WaitUntil("the toast gone", func(screen string) bool { return !strings.Contains(screen, "not allowed") })
	}
	viewer.Keys("q")
	viewer.WaitFor("rollscope exited 0")

	argv := []string{bin, "--kubeconfig", c.CP.AdminKubeconfig, "-n", consoleNS, "deploy/web"}
	s := console(t, argv)
	s.WaitFor("successfully rolled out")
	s.Keys("K")
	s.WaitFor("> " + oldImage)
	s.Keys("C-u")
	s.Keys("-l", newImage)
	s.Keys("Enter")
	s.WaitFor("steps: pods or % of 4 replicas")
	s.Keys("C-u")
	s.Keys("-l", "1, 2")
	s.Keys("Enter")
	s.WaitFor("hold at each step")
	s.Keys("C-u")
	s.Keys("-l", "15s")
	s.Keys("Enter")
	s.WaitFor("on a failed gate")
	s.Keys("Enter")
	s.WaitFor("metric gates: AnalysisTemplates")
	s.Keys("Enter") // none: the gates are the pods' health
	s.WaitFor("will send, one update per step")
	s.Keys("y")
	s.WaitFor("canary step 1/3 · 1/4 pods on rev 2")

	// Killed, not quit: what a crash or a lost terminal does.
	s.Kill()
	// The hold is 15 s and the new pod is ready within seconds: a driver
	// would have gone on by now. With no console, nothing does.
	time.Sleep(20 * time.Second)
	if cn := c.canaryOf(t); cn.State.Step != 1 {
		t.Fatalf("with no console running, the canary moved on to step %d", cn.State.Step)
	}

	s = console(t, argv)
	s.WaitFor("canary step 1/3 · 1/4 pods on rev 2")
	e2etest.Poll(t, patience, "the restarted console driving the canary to step 2", func(ctx context.Context) (bool, string, error) {
		cn := c.canaryOf(t)
		return cn.State.Step >= 2, fmt.Sprintf("step %d %s, lease %+v", cn.State.Step, cn.State.Phase, cn.Lease), nil
	})
	// The label the consoles find canaries by, taken off by hand mid-canary:
	// the console's watch of labelled Deployments drops the Deployment, and
	// the console puts the label back rather than lose the canary.
	unlabel := fmt.Appendf(nil, `{"metadata":{"labels":{%q:null}}}`, model.CanaryLabel)
	if _, err := c.Admin.AppsV1().Deployments(consoleNS).Patch(t.Context(), "web", types.MergePatchType, unlabel, metav1.PatchOptions{}); err != nil {
		t.Fatal(err)
	}
	e2etest.Poll(t, patience, "the console labelling its canary again", func(ctx context.Context) (bool, string, error) {
		d, err := c.Admin.AppsV1().Deployments(consoleNS).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		return d.Labels[model.CanaryLabel] == "true", fmt.Sprintf("labels %v", d.Labels), nil
	})
	var final *appsv1.Deployment
	e2etest.Poll(t, patience, "the canary finished and cleared", func(ctx context.Context) (bool, string, error) {
		var err error
		final, err = c.Admin.AppsV1().Deployments(consoleNS).Get(ctx, "web", metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		st := final.Status
		return !model.HasCanaryAnnotations(final) && st.UpdatedReplicas == 4 && st.AvailableReplicas == 4 && st.Replicas == 4,
			fmt.Sprintf("%d updated, %d available, %d in all", st.UpdatedReplicas, st.AvailableReplicas, st.Replicas), nil
	})
	if got := model.CanaryOriginalOf(final); !reflect.DeepEqual(got, original) {
		t.Errorf("after the canary the deployment has %+v, want it as it was: %+v", got, original)
	}
	s.WaitFor("successfully rolled out")
	s.WaitUntil("the canary line gone", func(screen string) bool { return !strings.Contains(screen, "canary step") })
	s.Keys("q")
	s.WaitFor("rollscope exited 0")
}

// canaryOf reads the canary of deployment web in the console's namespace.
func (c *cluster) canaryOf(t *testing.T) model.Canary {
	t.Helper()
	return c.canaryIn(t, consoleNS)
}
