package scenario_test

import (
	"reflect"
	"strings"
	"testing"

	appsv1 "k8s.io/api/apps/v1"
	corev1 "k8s.io/api/core/v1"

	"rollscope/engine/scenario"
	"rollscope/model/kind"
)

// twoNamespaces declares web in the scenario's namespace (shop) and ledger
// in billing; its first action entry is on line 25.
const twoNamespaces = `namespace: shop
objects: |
  apiVersion: v1
  kind: Namespace
  metadata: {name: billing}
  ---
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec: {containers: [{name: app, image: "nginx:1.27"}]}
  ---
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: ledger, namespace: billing}
  spec:
    selector: {matchLabels: {app: ledger}}
    template:
      metadata: {labels: {app: ledger}}
      spec: {containers: [{name: app, image: "ledger:1"}, {name: proxy, image: "envoy:1"}]}
actions:
`

// An action names its target's namespace beside it; left out, the target is
// in the scenario's, which the parsed action leaves empty.
func TestActionsTakeTheirNamespace(t *testing.T) {
	src := twoNamespaces + `  - {at: 15s, setImage: {target: deployment/ledger, namespace: billing, container: app, image: "ledger:2"}}
  - {at: 20s, pause: {target: deployment/ledger, namespace: billing}}
  - {at: 25s, scale: {target: deployment/web, namespace: shop, replicas: 4}}
  - {at: 30s, resume: deployment/web}
  - {at: 35s, canary: {target: deploy/ledger, namespace: billing, container: proxy, image: "envoy:2", steps: [1]}}
`
	sc, err := scenario.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	ledger := scenario.Target{Kind: kind.Deployment, Name: "ledger", Namespace: "billing"}
	web := scenario.Target{Kind: kind.Deployment, Name: "web"}
	got := make([]scenario.Target, len(sc.Actions))
	for i, a := range sc.Actions {
		got[i] = a.Target
	}
	if want := []scenario.Target{ledger, ledger, web, web, ledger}; !reflect.DeepEqual(got, want) {
		t.Errorf("targets\n got %+v\nwant %+v", got, want)
	}
	if c := sc.Actions[4].Container; c != "proxy" {
		t.Errorf("canary container = %q: the container is looked up in billing's ledger", c)
	}
	if ns := ledger.NamespaceOr(sc.Namespace); ns != "billing" {
		t.Errorf("NamespaceOr = %q", ns)
	}
	if ns := web.NamespaceOr(sc.Namespace); ns != "shop" {
		t.Errorf("NamespaceOr = %q", ns)
	}
	for _, o := range sc.Objects {
		if d, ok := o.(*appsv1.Deployment); ok && d.Name == "ledger" && d.Namespace != "billing" {
			t.Errorf("ledger is in %q, want billing as its metadata says", d.Namespace)
		}
	}
}

func TestActionNamespaceMistakesNameTheirLine(t *testing.T) {
	cases := []struct{ name, action, want string }{
		{"no such object there", `{at: 1s, pause: {target: deployment/web, namespace: billing}}`,
			`t.yaml:25: actions[0].pause target "deployment/web": no Deployment "web" in namespace "billing" among the objects (declare it under objects: or fix the name)`},
		{"object elsewhere, namespace left out", `{at: 1s, setImage: {target: deployment/ledger, container: app, image: "ledger:2"}}`,
			`t.yaml:25: actions[0].setImage target "deployment/ledger": no Deployment "ledger" in namespace "shop" among the objects (declare it under objects: or fix the name)`},
		{"invalid name", `{at: 1s, scale: {target: deployment/ledger, namespace: Billing, replicas: 2}}`,
			`t.yaml:25: actions[0].scale.namespace "Billing" is not a namespace name (lower-case letters, digits and '-', like billing)`},
		{"unknown key beside a bare target", `{at: 1s, resume: {target: deployment/web, ns: shop}}`,
			`t.yaml:25: unknown key "ns" in actions[0].resume (known: target, namespace)`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := scenario.Parse("t.yaml", []byte(twoNamespaces+"  - "+c.action+"\n"))
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("got  %v\nwant %s", err, c.want)
			}
		})
	}
}

// A scenario may declare its own namespace, as a manifest `kubectl apply`
// takes does, with labels and annotations — also after the objects in it.
func TestScenarioMayDeclareItsOwnNamespace(t *testing.T) {
	src := strings.Replace(twoNamespaces, "actions:\n", `  ---
  apiVersion: v1
  kind: Namespace
  metadata: {name: shop, labels: {team: payments}, annotations: {owner: alice}}
`, 1)
	sc, err := scenario.Parse("t.yaml", []byte(src))
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, obj := range sc.Objects {
		if ns, ok := obj.(*corev1.Namespace); ok {
			found = ns.Name == "shop" && ns.Labels["team"] == "payments" && ns.Annotations["owner"] == "alice"
		}
	}
	if !found {
		t.Errorf("the declared namespace shop, with its labels and annotations, is not among the objects: %v", sc.Objects)
	}
}
