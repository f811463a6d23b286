package multicluster

import (
	"bytes"
	"context"
	"os/exec"
	"regexp"
	"strings"
	"testing"
	"time"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"

	"rollscope/engine/kubelet"
	"rollscope/engine/live"
	"rollscope/engine/nodegroup"
	"rollscope/test/e2e/e2etest"
)

// nodes are hollow nodes whose pods are ready about a second after binding.
var nodes = live.Nodes{
	Groups: []nodegroup.Group{e2etest.HollowGroup(2, 500*time.Millisecond, e2etest.Capacity("110", "8", "16Gi"))},
	Images: []kubelet.ImageRule{
		{Match: "*", Pull: 200 * time.Millisecond, Start: 200 * time.Millisecond, Ready: 500 * time.Millisecond, Stop: 300 * time.Millisecond},
	},
	OnError: e2etest.IgnoreErrors,
}

// plainToEnd runs rollscope --plain on the contexts until it ends by
// itself, and returns its exit code and output.
func plainToEnd(t *testing.T, bin, kubeconfig, contexts, target string, patience time.Duration) (int, string, string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), patience)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--plain", "--kubeconfig", kubeconfig, "--context", contexts, target)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	if ctx.Err() != nil {
		t.Fatalf("rollscope --plain --context %s %s did not end by itself within %v; it wrote:\n%s\n%s", contexts, target, patience, out.String(), errOut.String())
	}
	code, err := e2etest.ExitCode(err)
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("rollscope --plain --context %s %s exited %d; stdout:\n%s\nstderr:\n%s", contexts, target, code, out.String(), errOut.String())
	return code, out.String(), errOut.String()
}

// TestPlainFollowsEveryCluster: --plain on two contexts prints each line
// with its context and exits once the rollout in both has finished: 0 when
// both rolled out, 1 when one failed, its error naming the context.
func TestPlainFollowsEveryCluster(t *testing.T) {
	east, west, kubeconfig := twoClusters(t, e2etest.Setup{Nodes: nodes})
	code, out, _ := plainToEnd(t, east.Bin, kubeconfig, "east,west", "deploy/web", east.Patience)
	for _, context := range []string{"east", "west"} {
		if code != 0 || !finished(out, context, "web") {
			t.Errorf("exit %d, want 0 and %s's web finished on a line naming %s", code, context, context)
		}
	}

	// West's "late" fits on no node and gives up after 5s; east's rolls out.
	for _, c := range []*e2etest.Cluster{east, west} {
		d := e2etest.Deployment(ns, "late", 1, "e2e.example/late:v1")
		d.Spec.ProgressDeadlineSeconds = ptr(int32(5))
		if c == west {
			d.Spec.Template.Spec.NodeSelector = map[string]string{"e2e.example/none": "none"}
		}
		if _, err := c.Admin.AppsV1().Deployments(ns).Create(t.Context(), d, metav1.CreateOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	code, out, errOut := plainToEnd(t, east.Bin, kubeconfig, "east,west", "deploy/late", east.Patience)
	lines := strings.Split(strings.TrimSpace(errOut), "\n")
	last := lines[len(lines)-1] // after the banners
	if code != 1 || !finished(out, "east", "late") || !strings.Contains(last, `context "west"`) ||
		!strings.Contains(last, "exceeded its progress deadline") || strings.Contains(last, `context "east"`) {
		t.Errorf("exit %d, want 1 with east's rollout finished and west's failure naming west", code)
	}
}

// finished reports whether out has a line of context's deployment name
// saying it rolled out: "[10:44:06 east] deployment/web … successfully
// rolled out".
func finished(out, context, name string) bool {
	return regexp.MustCompile(`(?m)^\[\d\d:\d\d:\d\d ` + context + `\] deployment/` + name + ` .*successfully rolled out$`).MatchString(out)
}

func ptr[T any](v T) *T { return &v }
