// Package rolloutfixture is the Argo Rollout rollscope's tests run, kept in
// one place: rollout/checkout, its pods labelled app: checkout, one
// container web on shop/checkout:v1, with the replicas and the strategy a
// test asks for. Tests of the scenario loader, the embedded cluster, the
// Rollout controller, forecasts and the console read it from here.
package rolloutfixture

import "fmt"

// Rollout is the manifest of rollout/checkout with replicas pods and
// strategy (a flow-style YAML value, such as
// "{canary: {steps: [{setWeight: 25}, {pause: {}}]}}"), indented to sit
// in a scenario's `objects: |` block.
func Rollout(replicas int, strategy string) string {
	return fmt.Sprintf(`  apiVersion: argoproj.io/v1alpha1
  kind: Rollout
  metadata: {name: checkout}
  spec:
    replicas: %d
    selector: {matchLabels: {app: checkout}}
    template:
      metadata: {labels: {app: checkout}}
      spec: {containers: [{name: web, image: "shop/checkout:v1"}]}
    strategy: %s
`, replicas, strategy)
}

// Canary is the basic canary most tests run: 25 %, then a pause until
// promoted.
const Canary = "{canary: {steps: [{setWeight: 25}, {pause: {}}]}}"

// BlueGreen is the manifests of a blue/green rollout/checkout with
// replicas pods: its Services checkout-active and checkout-preview, and
// the Rollout switching them, its blueGreen strategy given more fields by
// more (", autoPromotionEnabled: false" or "").
func BlueGreen(replicas int, more string) string {
	return `  apiVersion: v1
  kind: Service
  metadata: {name: checkout-active}
  spec: {selector: {app: checkout}, ports: [{port: 80}]}
  ---
  apiVersion: v1
  kind: Service
  metadata: {name: checkout-preview}
  spec: {selector: {app: checkout}, ports: [{port: 80}]}
  ---
` + Rollout(replicas, "{blueGreen: {activeService: checkout-active, previewService: checkout-preview"+more+"}}")
}
