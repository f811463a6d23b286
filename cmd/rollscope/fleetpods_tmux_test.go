package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// twoNamespaces: shop's web rolls to an image that takes ten minutes to be
// ready, with no probe and so no Warning; pay's api crash-loops.
var twoNamespaces = `name: two-namespaces
seed: 1
namespace: shop
nodeGroups: [{name: nodes, role: Node, size: 2, capacity: {pods: 30, cpu: "8", memory: 32Gi}}]
images:
  - {match: "*:slow", pull: 1s, start: 1s, ready: 10m}
  - {match: "*:broken", pull: 1s, start: 1s, crashLoop: true}
  - {match: "*", pull: 1s, start: 1s, ready: 1s}
objects: |
  apiVersion: v1
  kind: Namespace
  metadata: {name: pay}
` + twoReplicas("shop", "web") + twoReplicas("pay", "api") + `actions:
  - {at: 10s, setImage: {target: deployment/web, container: web, image: "registry.local/web:slow"}}
  - {at: 10s, setImage: {target: deployment/api, namespace: pay, container: api, image: "registry.local/api:broken"}}
`

// twoReplicas is a scenario's Deployment of two replicas of image v1,
// rolled one pod at a time.
func twoReplicas(namespace, name string) string {
	return fmt.Sprintf(`  ---
  apiVersion: apps/v1
  kind: Deployment
  metadata: {name: %[2]s, namespace: %[1]s}
  spec: {replicas: 2, selector: {matchLabels: {app: %[2]s}}, strategy: {rollingUpdate: {maxSurge: 1, maxUnavailable: 0}},
    template: {metadata: {labels: {app: %[2]s}}, spec: {containers: [{name: %[2]s, image: "registry.local/%[2]s:v1"}]}}}
`, namespace, name)
}

// The fleet of every namespace watches pods only where its rows need them:
// pay's api, whose pods' Warnings (BackOff) ask for them, is crash-looping
// and names its pod; shop's web, rolling without a Warning, says kubectl's
// sentence. Opening web asks for shop's pods, and the events about shop's
// Deployments and ReplicaSets: its page shows the pods, the blocker line
// read from them and its timeline. Its Nodes pane counts no pods while only
// some namespaces' are held; focused, it asks for every pod and counts them.
func TestTheFleetReadsPodsWhereItsRowsNeedThem(t *testing.T) {
	t.Parallel() // its own tmux server and binary: waits on real time beside the others
	path := filepath.Join(t.TempDir(), "two-namespaces.yaml")
	if err := os.WriteFile(path, []byte(twoNamespaces), 0o644); err != nil {
		t.Fatal(err)
	}
	c := startConsole(t, 260, 40, "--scenario", path, "--speed", "5", "-A")
	c.waitFor("1 crash-looping")
	c.keys("/", "ns:pay")
	c.keys("Enter")
	c.WaitMatch(regexp.MustCompile(`pay deploy/api: new pods crash-loop — api-\w+-\w+ restarted \d+ times?`))
	c.keys("Escape")
	c.WaitUntil("the filter cleared", func(s string) bool { return !strings.Contains(s, "/ns:pay") })
	c.keys("/", "ns:shop")
	c.keys("Enter")
	c.WaitMatch(regexp.MustCompile(`shop deploy/web: (no progress for \S+ — )?Waiting for deployment "web" rollout to finish: 1 out of 2 new replicas have been updated`))
	c.keys("Enter")
	c.WaitMatch(regexp.MustCompile(`web-\w+-\w+ +0/1 +Running`))
	c.WaitMatch(regexp.MustCompile(`web-\w+-\w+ running but not ready for \d+`))
	c.WaitMatch(regexp.MustCompile(`ScalingReplicaSet: Scaled up replica set web-`))
	c.WaitMatch(regexp.MustCompile(`nodes-0 +nodes +Ready +yes +- +current`))
	c.keys("Tab", "Tab")
	c.WaitMatch(regexp.MustCompile(`nodes-0 +nodes +Ready +yes +\d+ +current`))
}
