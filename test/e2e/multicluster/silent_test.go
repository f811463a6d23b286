package multicluster

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"os/exec"
	"regexp"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"rollscope/internal/tmuxtest"
	"rollscope/test/e2e/e2etest"
)

// withSilent adds to kubeconfig a context, silent, whose server accepts
// connections and never replies: a cluster that holds every request until
// it times out.
func withSilent(t *testing.T, kubeconfig string) {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var held []net.Conn
	done := make(chan struct{})
	go func() {
		defer close(done)
		for {
			c, err := l.Accept()
			if err != nil {
				return
			}
			held = append(held, c) // never read, never answered
		}
	}()
	t.Cleanup(func() {
		l.Close()
		<-done
		for _, c := range held {
			c.Close()
		}
	})
	cfg, err := clientcmd.LoadFromFile(kubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	cfg.Clusters["silent"] = &clientcmdapi.Cluster{Server: "https://" + l.Addr().String(), InsecureSkipTLSVerify: true}
	cfg.Contexts["silent"] = &clientcmdapi.Context{Cluster: "silent", AuthInfo: "east", Namespace: ns}
	if err := clientcmd.WriteToFile(*cfg, kubeconfig); err != nil {
		t.Fatal(err)
	}
}

// TestASilentClusterHoldsUpNoneOfTheOthers: with a third context whose
// server never answers named first, --plain follows west to the end
// before silent's line is printed; the console opens on east's and west's
// rows while silent is still connecting, an action on west's row is sent
// there, and silent's line then says why it could not be reached and when
// it was tried.
func TestASilentClusterHoldsUpNoneOfTheOthers(t *testing.T) {
	east, west, kubeconfig := twoClusters(t, e2etest.Setup{Nodes: nodes})
	withSilent(t, kubeconfig)

	// --plain: west's web is followed to the end before silent's failure
	// is even known; the run then ends, 0. web has rolled out before the
	// run starts, so what is measured against silent's connection check is
	// rollscope reaching west, not how fast west's pods become ready.
	west.Poll(t, "west's web rolled out", rolledOut(west, "web"))
	ctx, cancel := context.WithTimeout(t.Context(), east.Patience)
	defer cancel()
	cmd := exec.CommandContext(ctx, east.Bin, "--plain", "--kubeconfig", kubeconfig, "--context", "silent,east,west", "deploy/web")
	var both bytes.Buffer
	cmd.Stdout, cmd.Stderr = &both, &both // one stream: the order of events
	err := cmd.Run()
	out := both.String()
	t.Logf("rollscope --plain exited %v:\n%s", err, out)
	rolled := regexp.MustCompile(`(?m)^\[\d\d:\d\d:\d\d west\] deployment/web .*successfully rolled out$`).FindStringIndex(out)
	silent := strings.Index(out, `context "silent"`)
	if err != nil || rolled == nil || silent < 0 || silent < rolled[0] {
		t.Errorf("want west's web followed to the end before silent's line, and exit 0")
	}

	s := tmuxtest.Start(t, 200, 50, east.Bin, "--kubeconfig", kubeconfig, "--context", "silent,east,west")
	s.Timeout = east.Patience
	screen := s.WaitUntil("east's and west's rows, silent connecting", func(screen string) bool {
		return row(screen, "east", "web") && row(screen, "west", "api")
	})
	t.Logf("the console open:\n%s", screen)
	if !strings.Contains(screen, "silent: connecting…") {
		t.Fatalf("the others' rows came only once silent was given up on:\n%s", screen)
	}
	filter(s, "ctx:west web", "west's web alone", func(screen string) bool { return row(screen, "west", "web") && !row(screen, "east", "web") })
	s.Keys("p")
	s.WaitFor("kubectl --context west -n " + ns + " rollout pause deployment/web")
	s.Keys("y")
	west.Poll(t, "west's web paused while silent does not answer", paused(west, "web"))
	s.Keys("Escape")
	screen = s.WaitUntil("silent's line says why and when it was tried", func(screen string) bool {
		return regexp.MustCompile(`silent: last tried \d+s ago: `).MatchString(screen)
	})
	t.Logf("silent tried:\n%s", screen)
	if !row(screen, "east", "web") || !row(screen, "west", "api") {
		t.Errorf("the others' rows went with silent's failure:\n%s", screen)
	}
}

// rolledOut says whether name's every replica is updated and available,
// read through the cluster's own API.
func rolledOut(c *e2etest.Cluster, name string) e2etest.Check {
	return func(ctx context.Context) (bool, string, error) {
		d, err := c.Admin.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		st := d.Status
		done := st.ObservedGeneration >= d.Generation && st.UpdatedReplicas == *d.Spec.Replicas && st.AvailableReplicas == *d.Spec.Replicas
		return done, fmt.Sprintf("updated %d available %d of %d", st.UpdatedReplicas, st.AvailableReplicas, *d.Spec.Replicas), nil
	}
}
