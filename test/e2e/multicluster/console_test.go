package multicluster

import (
	"context"
	"fmt"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/client-go/kubernetes"
	"k8s.io/client-go/tools/clientcmd"
	clientcmdapi "k8s.io/client-go/tools/clientcmd/api"

	"rollscope/internal/tmuxtest"
	"rollscope/test/e2e/e2etest"
)

const ns = "shop"

// twoClusters starts two independent control planes, east and west, each
// with web in shop (west also api), and writes one kubeconfig holding a
// context for each, and west-view: west for its view-only user.
func twoClusters(t *testing.T, setup e2etest.Setup) (east, west *e2etest.Cluster, kubeconfig string) {
	west = e2etest.Start(t, setup)
	setup.Rollscope = true
	east = e2etest.Start(t, setup)
	west.Bin = east.Bin
	cfg := clientcmdapi.NewConfig()
	for name, c := range map[string]*e2etest.Cluster{"east": east, "west": west} {
		one, err := clientcmd.LoadFromFile(c.CP.AdminKubeconfig)
		if err != nil {
			t.Fatal(err)
		}
		ctx := one.Contexts[one.CurrentContext]
		cfg.Clusters[name] = one.Clusters[ctx.Cluster]
		cfg.AuthInfos[name] = one.AuthInfos[ctx.AuthInfo]
		cfg.Contexts[name] = &clientcmdapi.Context{Cluster: name, AuthInfo: name, Namespace: ns}
		c.Namespace(t, ns)
		create(t, c.Admin, "web")
	}
	create(t, west.Admin, "api")
	// west-view is west for its view-only user.
	view, err := clientcmd.LoadFromFile(west.CP.ViewerKubeconfig)
	if err != nil {
		t.Fatal(err)
	}
	cfg.AuthInfos["west-view"] = view.AuthInfos[view.Contexts[view.CurrentContext].AuthInfo]
	cfg.Contexts["west-view"] = &clientcmdapi.Context{Cluster: "west", AuthInfo: "west-view", Namespace: ns}
	cfg.CurrentContext = "east"
	kubeconfig = filepath.Join(t.TempDir(), "kubeconfig")
	if err := clientcmd.WriteToFile(*cfg, kubeconfig); err != nil {
		t.Fatal(err)
	}
	return east, west, kubeconfig
}

func create(t *testing.T, client kubernetes.Interface, name string) {
	t.Helper()
	if _, err := client.AppsV1().Deployments(ns).Create(t.Context(), e2etest.Deployment(ns, name, 2, "e2e.example/"+name+":v1"), metav1.CreateOptions{}); err != nil {
		t.Fatal(err)
	}
}

// paused reads spec.paused of name through the cluster's own API.
func paused(c *e2etest.Cluster, name string) e2etest.Check {
	return func(ctx context.Context) (bool, string, error) {
		d, err := c.Admin.AppsV1().Deployments(ns).Get(ctx, name, metav1.GetOptions{})
		if err != nil {
			return false, "", err
		}
		return d.Spec.Paused, fmt.Sprint("paused=", d.Spec.Paused), nil
	}
}

func isPaused(t *testing.T, c *e2etest.Cluster, name string) bool {
	t.Helper()
	p, _, err := paused(c, name)(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// row finds the fleet's row of name in cluster: "west … web".
func row(screen, cluster, name string) bool {
	re := regexp.MustCompile(`(?m)^.*\b` + cluster + `\s+(deploy\s+)?` + name + `\s`)
	return re.MatchString(screen)
}

// TestOneFleetAcrossTwoClusters: `--context east,west` shows both
// clusters' rows with a CLUSTER column; pausing west's web from its row
// names --context west in the confirmation and pauses west's web only;
// with east's API server frozen east's rows are marked last known while
// west's stay live and its actions are still sent.
func TestOneFleetAcrossTwoClusters(t *testing.T) {
	east, west, kubeconfig := twoClusters(t, e2etest.Setup{})
	s := tmuxtest.Start(t, 200, 50, east.Bin, "--kubeconfig", kubeconfig, "--context", "east,west")
	s.Timeout = east.Patience
	screen := s.WaitUntil("rows of both clusters under a CLUSTER column", func(screen string) bool {
		return strings.Contains(screen, "CLUSTER") && row(screen, "east", "web") && row(screen, "west", "web") && row(screen, "west", "api")
	})
	t.Logf("the fleet of both clusters:\n%s", screen)
	if row(screen, "east", "api") {
		t.Errorf("east has no api, yet a row says it does:\n%s", screen)
	}

	pauseWest := func(key, want string) {
		t.Helper()
		s.Keys("/")
		s.Keys("-l", "ctx:west web")
		s.Keys("Enter")
		s.WaitUntil("west's web alone", func(screen string) bool {
			return row(screen, "west", "web") && !row(screen, "east", "web") && !row(screen, "west", "api")
		})
		s.Keys(key)
		screen := s.WaitFor("kubectl --context west -n " + ns + " rollout " + want + " deployment/web")
		t.Logf("the confirmation:\n%s", screen)
		s.Keys("y")
	}
	pauseWest("p", "pause")
	west.Poll(t, "west's web paused", paused(west, "web"))
	if isPaused(t, east, "web") {
		t.Errorf("pausing west's web paused east's web too")
	}

	// East freezes: its rows stay, marked last known; west's stay live.
	if err := east.CP.FreezeAPIServer(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = east.CP.ThawAPIServer() })
	s.Keys("Escape")
	screen = s.WaitUntil("east marked last known", func(screen string) bool {
		return regexp.MustCompile(`east: last known \d+s ago`).MatchString(screen) && row(screen, "east", "web")
	})
	t.Logf("east frozen:\n%s", screen)
	if strings.Contains(screen, "west: last known") {
		t.Errorf("west is marked last known while only east is frozen:\n%s", screen)
	}
	pauseWest("r", "resume")
	west.Poll(t, "west's web resumed while east is frozen", func(ctx context.Context) (bool, string, error) {
		p, state, err := paused(west, "web")(ctx)
		return !p, state, err
	})
	if err := east.CP.ThawAPIServer(); err != nil {
		t.Fatal(err)
	}
	s.WaitUntil("east live again", func(screen string) bool { return !strings.Contains(screen, "east: last known") })

	// g: web of both clusters is one row, saying what each runs.
	s.Keys("Escape")
	s.WaitUntil("every row again", func(screen string) bool { return row(screen, "east", "web") && row(screen, "west", "api") })
	s.Keys("g")
	screen = s.WaitUntil("web grouped", func(screen string) bool {
		return strings.Contains(screen, "PER CLUSTER") && regexp.MustCompile(`(east|west) \+1 +deploy +web `).MatchString(screen) &&
			strings.Contains(screen, "west rev 1 e2e.example/web:v1") && strings.Contains(screen, "east rev 1 e2e.example/web:v1")
	})
	t.Logf("grouped:\n%s", screen)
	s.Keys("g")

	// 80×24: the CLUSTER column stays, and the confirmation names the
	// context.
	n := tmuxtest.Start(t, 80, 24, east.Bin, "--kubeconfig", kubeconfig, "--context", "east,west")
	n.Timeout = east.Patience
	screen = n.WaitUntil("both clusters at 80×24", func(screen string) bool {
		return strings.Contains(screen, "CLUSTER") && row(screen, "east", "web") && row(screen, "west", "api")
	})
	t.Logf("80×24:\n%s", screen)
	n.Keys("/")
	n.Keys("-l", "ctx:east")
	n.Keys("Enter")
	n.WaitUntil("east's rows alone", func(screen string) bool { return row(screen, "east", "web") && !row(screen, "west", "api") })
	n.Keys("p")
	screen = n.WaitFor("--context east")
	t.Logf("80×24 confirmation:\n%s", screen)
	n.Keys("Escape")
	if isPaused(t, east, "web") {
		t.Errorf("a confirmation left with esc paused east's web")
	}
}

// filter types text after / in s and keeps it, waiting for ok.
func filter(s *tmuxtest.Session, text, what string, ok func(string) bool) {
	s.Keys("/")
	s.Keys("-l", text)
	s.Keys("Enter")
	s.WaitUntil(what, ok)
}

// TestActInOneClusterViewTheOther: a user who may act in east and only
// view west (west-view) sees both fleets; p on west's row is refused with
// west's reason, on east's row it asks to send to east.
func TestActInOneClusterViewTheOther(t *testing.T) {
	east, _, kubeconfig := twoClusters(t, e2etest.Setup{})
	s := tmuxtest.Start(t, 200, 50, east.Bin, "--kubeconfig", kubeconfig, "--context", "east,west-view")
	s.Timeout = east.Patience
	s.WaitUntil("rows of both clusters", func(screen string) bool { return row(screen, "east", "web") && row(screen, "west-view", "api") })
	filter(s, "ctx:west-view web", "west's web alone", func(screen string) bool { return row(screen, "west-view", "web") && !row(screen, "east", "web") })
	s.Keys("p")
	screen := s.WaitUntil("p refused on west's row", func(screen string) bool { return strings.Contains(screen, "not allowed") })
	if strings.Contains(screen, "rollout pause") {
		t.Errorf("p on the view-only cluster's row opened a confirmation:\n%s", screen)
	}
	t.Logf("p on west-view's row:\n%s", screen)
	s.Keys("Escape")
	s.WaitUntil("the filter cleared", func(screen string) bool { return row(screen, "east", "web") })
	filter(s, "ctx:east web", "east's web alone", func(screen string) bool { return row(screen, "east", "web") && !row(screen, "west-view", "web") })
	s.Keys("p")
	s.WaitFor("kubectl --context east -n " + ns + " rollout pause deployment/web")
	s.Keys("n")
}
