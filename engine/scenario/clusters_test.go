package scenario_test

import (
	"strings"
	"testing"

	"rollscope/engine/scenario"
)

// clustersHead is a scenario of two clusters; cases append to it from
// line 13 on.
const clustersHead = `name: regions
namespace: shop
clusters:
  - name: eu-west
    objects: &objs |
      apiVersion: apps/v1
      kind: Deployment
      metadata: {name: web}
      spec:
        selector: {matchLabels: {app: web}}
        template: {metadata: {labels: {app: web}}, spec: {containers: [{name: app, image: "nginx:1"}]}}
  - {name: us-east, objects: *objs, actions: [{at: 5s, pause: deploy/web}]}
`

func TestClustersAreEachAScenarioOfTheirOwn(t *testing.T) {
	sc, err := scenario.Parse("r.yaml", []byte(clustersHead+"actions:\n  - {at: 20s, cluster: eu-west, setImage: {target: deploy/web, image: \"nginx:2\"}}\n  - {at: 1s, cluster: us-east, resume: deploy/web}\n"))
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Join(sc.ClusterNames(), ","); got != "eu-west,us-east" {
		t.Fatalf("clusters %q", got)
	}
	eu, us := sc.Clusters[0], sc.Clusters[1]
	if len(sc.Objects) != 0 || len(eu.Objects) != 1 || len(us.Objects) != 1 || eu.Namespace != "shop" || eu.Name != "regions" {
		t.Fatalf("top %d objects, eu-west %d in %q (%q), us-east %d", len(sc.Objects), len(eu.Objects), eu.Namespace, eu.Name, len(us.Objects))
	}
	if len(eu.Actions) != 1 || eu.Actions[0].Kind != scenario.ActionSetImage || eu.Actions[0].Line != 14 {
		t.Fatalf("eu-west's actions: %+v", eu.Actions)
	}
	// Its own and the top level's, in time order.
	if len(us.Actions) != 2 || us.Actions[0].Kind != scenario.ActionResume || us.Actions[1].Kind != scenario.ActionPause {
		t.Fatalf("us-east's actions: %+v", us.Actions)
	}
	if got := sc.Summary(); got != "2 clusters, 2 objects, 0 nodes, 3 scripted actions" {
		t.Fatalf("summary %q", got)
	}
}

func TestClustersBadInputIsOneLineAtItsLine(t *testing.T) {
	for _, c := range []struct{ name, text, want string }{
		{"duplicate name", clustersHead + "  - {name: eu-west}\n",
			`r.yaml:13: cluster "eu-west" is named twice (first on line 4; give each cluster its own name)`},
		{"action names an unknown cluster", clustersHead + "actions:\n  - {at: 1s, cluster: ap-south, pause: deploy/web}\n",
			`r.yaml:14: actions[0] names cluster "ap-south", which the scenario does not have (its clusters: eu-west, us-east)`},
		{"action names no cluster", clustersHead + "actions:\n  - {at: 1s, pause: deploy/web}\n",
			`r.yaml:14: actions[0] names no cluster (add cluster: eu-west, or write it under that cluster's actions:)`},
		{"objects beside clusters", clustersHead + "objects: |\n  kind: x\n",
			`r.yaml:13: objects: belongs to a cluster when the scenario has clusters: (move it under each entry of clusters:)`},
		{"cluster without a name", clustersHead + "  - {namespace: x}\n",
			`r.yaml:13: clusters[2] has no name (add name: eu-west, the name its rows show in the CLUSTER column)`},
		{"a cluster's action on what it lacks", clustersHead + "  - {name: ap-south, actions: [{at: 1s, pause: deploy/web}]}\n",
			`r.yaml:13:`},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := scenario.Parse("r.yaml", []byte(c.text))
			if err == nil || !strings.HasPrefix(err.Error(), c.want) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("got %v\nwant %s", err, c.want)
			}
		})
	}
}
