package main

import (
	"os"
	"path/filepath"
	"testing"
)

// A scenario file declares an Argo Rollout beside a Deployment: the
// embedded cluster serves and runs it (its first ReplicaSet at revision 1,
// all 4 pods asked for) and the console's fleet lists it, watched as on a
// live cluster with Argo's CRDs and controller.
func TestConsoleListsAScenariosRollout(t *testing.T) {
	f := filepath.Join(t.TempDir(), "argo.yaml")
	scenario := `objects: |
  apiVersion: argoproj.io/v1alpha1
  kind: Rollout
  metadata: {name: checkout}
  spec:
    replicas: 4
    selector: {matchLabels: {app: checkout}}
    template:
      metadata: {labels: {app: checkout}}
      spec: {containers: [{name: web, image: "shop/checkout:v1"}]}
    strategy: {canary: {steps: [{setWeight: 25}, {pause: {}}]}}
  ---
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: web}
  spec:
    replicas: 2
    selector: {matchLabels: {app: web}}
    template:
      metadata: {labels: {app: web}}
      spec: {containers: [{name: web, image: "shop/web:v1"}]}
`
	if err := os.WriteFile(f, []byte(scenario), 0o600); err != nil {
		t.Fatal(err)
	}
	c := startConsole(t, 140, 30, "--scenario", f)
	s := c.waitFor("ns default · 2 workloads")
	wantAll(t, s, "the fleet", "ro     checkout", "shop/checkout:v1", "4/0/4", "deploy web")
	c.keys("q")
	c.waitFor("rollscope exited 0")
}
