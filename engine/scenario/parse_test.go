package scenario_test

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"
	policyv1 "k8s.io/api/policy/v1"
	"k8s.io/apimachinery/pkg/util/intstr"

	"rollscope/engine/kubelet"
	"rollscope/engine/scenario"
	"rollscope/model/kind"
)

func TestBuiltinsAreListedSortedAndParse(t *testing.T) {
	names := scenario.Builtins()
	want := []string{"argo-analysis", "argo-bluegreen", "argo-canary", "canary", "canary-gates", "crashloop", "daemons", "fleet", "frontend", "legacy-rc", "node-upgrade", "regions", "stateful"}
	if !reflect.DeepEqual(names, want) {
		t.Fatalf("Builtins() = %v, want %v", names, want)
	}
	for _, name := range names {
		src, ok := scenario.BuiltinSource(name)
		if !ok || !strings.HasPrefix(string(src), "# "+name+":") {
			t.Errorf("BuiltinSource(%q) should return the commented file, got ok=%v, starting %.30q", name, ok, src)
		}
		sc, err := scenario.Load(name)
		if err != nil {
			t.Fatalf("built-in %s does not parse: %v", name, err)
		}
		home := "default"
		if name == "fleet" { // several namespaces; shop is the one -n leaves out
			home = "shop"
		}
		if sc.Name != name || sc.Namespace != home {
			t.Errorf("built-in %s: name %q namespace %q", name, sc.Name, sc.Namespace)
		}
	}
	if _, ok := scenario.BuiltinSource("../builtin/frontend"); ok {
		t.Error("BuiltinSource must not resolve paths")
	}
}

func TestFrontendIsTheDocumentedRollout(t *testing.T) {
	sc, err := scenario.Load("frontend")
	if err != nil {
		t.Fatal(err)
	}
	if len(sc.NodeGroups) != 1 || sc.NodeGroups[0].Name != "nodes" || sc.NodeGroups[0].Size != 6 {
		t.Errorf("node groups = %+v, want one group nodes of 6", sc.NodeGroups)
	}
	d := onlyDeployment(t, sc)
	if d.Name != "frontend" || d.Namespace != "default" || *d.Spec.Replicas != 25 || d.Spec.MinReadySeconds != 5 {
		t.Errorf("deployment %s/%s replicas %d minReady %d", d.Namespace, d.Name, *d.Spec.Replicas, d.Spec.MinReadySeconds)
	}
	ru := d.Spec.Strategy.RollingUpdate
	if ru == nil || *ru.MaxSurge != intstr.FromInt32(3) || *ru.MaxUnavailable != intstr.FromInt32(2) {
		t.Errorf("rolling update = %+v, want maxSurge 3 maxUnavailable 2", ru)
	}
	c := d.Spec.Template.Spec.Containers[0]
	if c.Name != "php-redis" || c.Image != "gcr.io/google-samples/gb-frontend:v2" ||
		c.Resources.Requests.Cpu().String() != "100m" || c.Resources.Requests.Memory().String() != "100Mi" {
		t.Errorf("container = %s %s %v", c.Name, c.Image, c.Resources.Requests)
	}
	if d.Annotations["kubernetes.io/change-cause"] == "" {
		t.Error("the deployment should carry a change-cause for the history view")
	}
	rule := firstMatch(sc.Images, c.Image)
	if rule.Pull != time.Second || rule.Start != 2*time.Second || rule.Ready != 3*time.Second || rule.Jitter != 2*time.Second {
		t.Errorf("gb-frontend rule = %+v", rule)
	}
	var got []string
	for _, a := range sc.Actions {
		got = append(got, a.At.String()+" "+a.Kind+" "+a.Target.String()+" "+a.Container+"="+a.Image)
	}
	want := []string{
		"1m0s setImage deployment/frontend php-redis=gcr.io/google-samples/gb-frontend:v3",
		"4m0s setImage deployment/frontend php-redis=gcr.io/google-samples/gb-frontend:v4",
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("actions = %q, want %q", got, want)
	}
}

func TestCanaryPausesMidRollout(t *testing.T) {
	sc, err := scenario.Load("canary")
	if err != nil {
		t.Fatal(err)
	}
	d := onlyDeployment(t, sc)
	ru := d.Spec.Strategy.RollingUpdate
	if *d.Spec.Replicas != 10 || *ru.MaxSurge != intstr.FromInt32(1) || *ru.MaxUnavailable != intstr.FromInt32(0) {
		t.Errorf("replicas %d surge %v unavailable %v", *d.Spec.Replicas, ru.MaxSurge, ru.MaxUnavailable)
	}
	if len(sc.Actions) != 2 || sc.Actions[0].Kind != "setImage" || sc.Actions[0].At != 30*time.Second ||
		sc.Actions[1].Kind != "pause" || sc.Actions[1].At != 45*time.Second {
		t.Errorf("actions = %+v, want setImage at 30s then pause at 45s", sc.Actions)
	}
}

func TestCrashloopRollsOutACrashingImage(t *testing.T) {
	sc, err := scenario.Load("crashloop")
	if err != nil {
		t.Fatal(err)
	}
	d := onlyDeployment(t, sc)
	if d.Spec.ProgressDeadlineSeconds == nil || *d.Spec.ProgressDeadlineSeconds != 60 {
		t.Errorf("progressDeadlineSeconds = %v, want 60", d.Spec.ProgressDeadlineSeconds)
	}
	if firstMatch(sc.Images, d.Spec.Template.Spec.Containers[0].Image).CrashLoop {
		t.Error("the initial image must not crash")
	}
	if len(sc.Actions) != 1 || sc.Actions[0].Kind != "setImage" || !firstMatch(sc.Images, sc.Actions[0].Image).CrashLoop {
		t.Errorf("actions = %+v, want a setImage to an image whose first matching rule crash-loops", sc.Actions)
	}
}

func TestNodeUpgradeRollsOutdatedNodesUnderABudget(t *testing.T) {
	sc, err := scenario.Load("node-upgrade")
	if err != nil {
		t.Fatal(err)
	}
	g := sc.NodeGroups[0]
	if g.Size != 4 || g.InitialSpec == "" || g.InitialSpec == g.Spec {
		t.Errorf("group = %+v, want 4 nodes starting outdated", g)
	}
	var pdb *policyv1.PodDisruptionBudget
	for _, o := range sc.Objects {
		if p, ok := o.(*policyv1.PodDisruptionBudget); ok {
			pdb = p
		}
	}
	if pdb == nil || pdb.Spec.MinAvailable == nil || pdb.Namespace != "default" {
		t.Fatalf("want a PodDisruptionBudget with minAvailable in default, got %+v", pdb)
	}
	onlyDeployment(t, sc)
	if len(sc.Actions) != 1 || sc.Actions[0].Kind != "rollNodes" || sc.Actions[0].Group != g.Name {
		t.Errorf("actions = %+v, want rollNodes of %s", sc.Actions, g.Name)
	}
}

func TestParseNormalisesActions(t *testing.T) {
	src := workload + `  - {at: 90s, undo: deployment/web}
  - {at: 30s, setEnv: {target: rc/legacy, env: {MODE: fast, DEBUG: "", TRACE: ~}}}
  - {at: 30s, scale: {target: replicationcontroller/legacy, replicas: 0}}
  - {at: 1m, undo: {target: deploy/web, toRevision: 2}}
  - {at: 0, drain: spare-0}
  - {at: 2m, rollNodes: nodes}
  - {at: 10s, setImage: {target: deployments/web, container: sidecar, image: "envoyproxy/envoy:v1.31"}}
  - {at: 20s, restart: deployment/web}
`
	sc, err := scenario.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	web := scenario.Target{Kind: kind.Deployment, Name: "web"}
	legacy := scenario.Target{Kind: kind.ReplicationController, Name: "legacy"}
	want := []scenario.Action{
		{At: 0, Line: 31, Kind: "drain", Node: "spare-0"},
		{At: 10 * time.Second, Line: 33, Kind: "setImage", Target: web, Container: "sidecar", Image: "envoyproxy/envoy:v1.31"},
		{At: 20 * time.Second, Line: 34, Kind: "restart", Target: web},
		{At: 30 * time.Second, Line: 28, Kind: "setEnv", Target: legacy, Container: "app", Env: map[string]string{"MODE": "fast", "DEBUG": "", "TRACE": ""}},
		{At: 30 * time.Second, Line: 29, Kind: "scale", Target: legacy, Replicas: 0},
		{At: time.Minute, Line: 30, Kind: "undo", Target: web, ToRevision: 2},
		{At: 90 * time.Second, Line: 27, Kind: "undo", Target: web},
		{At: 2 * time.Minute, Line: 32, Kind: "rollNodes", Group: "nodes"},
	}
	if !reflect.DeepEqual(sc.Actions, want) {
		t.Errorf("actions\n got %+v\nwant %+v", sc.Actions, want)
	}
	if sc.Name != "t" {
		t.Errorf("name = %q, want t from the file", sc.Name)
	}
}

func TestParseFillsNamespacesAndDefaults(t *testing.T) {
	src := `namespace: shop
nodeGroups:
  - {name: nodes, size: 2, capacity: {cpu: "2"}, taints: [{key: dedicated, value: shop, effect: NoSchedule}], labels: {zone: a}}
images:
  - {match: "*:missing", pullError: true}
objects: |
  apiVersion: v1
  kind: Namespace
  metadata: {name: shop}
  ---
  apiVersion: v1
  kind: ConfigMap
  metadata: {name: settings}
  ---
  apiVersion: v1
  kind: Namespace
  metadata: {name: other}
  ---
  apiVersion: v1
  kind: Service
  metadata: {name: web, namespace: other}
`
	sc, err := scenario.Parse("dir/shop.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	if sc.Name != "shop" || sc.Namespace != "shop" {
		t.Errorf("name %q namespace %q", sc.Name, sc.Namespace)
	}
	var namespaces []string
	for _, o := range sc.Objects {
		switch o := o.(type) {
		case *corev1.Namespace:
			namespaces = append(namespaces, "Namespace:"+o.Namespace)
		case *corev1.ConfigMap:
			namespaces = append(namespaces, "ConfigMap:"+o.Namespace)
		case *corev1.Service:
			namespaces = append(namespaces, "Service:"+o.Namespace)
		}
	}
	if want := []string{"Namespace:", "ConfigMap:shop", "Namespace:", "Service:other"}; !slices.Equal(namespaces, want) {
		t.Errorf("namespaces = %v, want %v (cluster-scoped kinds get none, explicit ones stay)", namespaces, want)
	}
	g := sc.NodeGroups[0]
	if g.Role != "Node" || g.Capacity.Cpu().String() != "2" || g.Capacity.Pods().String() != "110" || g.Capacity.Memory().String() != "16Gi" {
		t.Errorf("group role %q capacity %v: want role Node, cpu 2 and the default pods and memory", g.Role, g.Capacity)
	}
	if len(g.Taints) != 1 || g.Taints[0].Effect != corev1.TaintEffectNoSchedule || g.Labels["zone"] != "a" {
		t.Errorf("taints %v labels %v", g.Taints, g.Labels)
	}
	if g.MaxSurge != nil || g.MaxUnavailable != nil {
		t.Error("unset budgets must stay nil so that kops defaults apply")
	}
	if !sc.Images[0].PullError {
		t.Error("pullError rule lost")
	}
}

func TestLoadReadsFilesAndExplainsMisses(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "mine.yaml")
	src, _ := scenario.BuiltinSource("canary")
	if err := os.WriteFile(file, src, 0o644); err != nil {
		t.Fatal(err)
	}
	if sc, err := scenario.Load(file); err != nil || sc.Name != "canary" {
		t.Fatalf("Load(%s) = %v, %v", file, sc, err)
	}
	if err := os.WriteFile(file, []byte("seed: x\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := scenario.Load(file); err == nil || err.Error() != file+`:1: seed must be a whole number, got "x"` {
		t.Errorf("errors in a file must name the path: %v", err)
	}
	_, err := scenario.Load("no-such-scenario")
	if err == nil || !strings.Contains(err.Error(), "not a built-in (argo-analysis, argo-bluegreen, argo-canary, canary, canary-gates, crashloop, daemons, fleet, frontend, legacy-rc, node-upgrade, regions, stateful)") || !errors.Is(err, fs.ErrNotExist) {
		t.Errorf("a miss should list the built-ins and wrap the file error: %v", err)
	}
}

func onlyDeployment(t *testing.T, sc *scenario.Scenario) *appsv1.Deployment {
	t.Helper()
	var found []*appsv1.Deployment
	for _, o := range sc.Objects {
		if d, ok := o.(*appsv1.Deployment); ok {
			found = append(found, d)
		}
	}
	if len(found) != 1 {
		t.Fatalf("want one Deployment, got %d", len(found))
	}
	return found[0]
}

// firstMatch applies the documented rule: the first glob that matches wins.
func firstMatch(rules []kubelet.ImageRule, image string) kubelet.ImageRule {
	for _, r := range rules {
		if glob(r.Match, image) {
			return r
		}
	}
	return kubelet.ImageRule{}
}

func glob(pattern, s string) bool {
	parts := strings.Split(pattern, "*")
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	for i, part := range parts[1:] {
		if i == len(parts)-2 {
			return strings.HasSuffix(s, part)
		}
		j := strings.Index(s, part)
		if j < 0 {
			return false
		}
		s = s[j+len(part):]
	}
	return s == ""
}

// An image rule's logs are the lines each run of a matching container
// writes, in order.
func TestImageRuleLogs(t *testing.T) {
	sc, err := scenario.Parse("t.yaml", []byte("images:\n  - {match: \"*:v2\", logs: [\"starting\", \"listening on :8080\"]}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := sc.Images[0].Logs; len(got) != 2 || got[0] != "starting" || got[1] != "listening on :8080" {
		t.Errorf("logs = %q, want the two lines in order", got)
	}
}
